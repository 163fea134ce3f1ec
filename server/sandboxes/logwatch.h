#pragma once
// Feeds each running sandbox's system log (logs/systemlog.h) from what lizard-local does not
// see in its own calls: the agent's messages (agent.log in the sandbox's directory, among them
// the reaper's "exit-signal" lines: agent/serve/reaper.h) and OOM kills (the memory cgroup's
// oom_kill count). Every 250 ms, on the worker pool. How far it read is kept in
// <sandbox dir>/system.log.pos, so a restarted lizard-local neither repeats nor skips lines.

#include "http/beast.h"
#include "logs/systemlog.h"
#include "store/store.h"

#include <atomic>
#include <map>
#include <memory>
#include <string>

namespace lizard::sandboxes {

class SandboxManager;
struct AgentExit; // a line "exit-signal" of agent.log

class LogWatch
{
public:
    LogWatch(store::Store& store, SandboxManager& sandboxes, http::net::io_context& ioc,
             http::net::thread_pool& workers, std::string dataDir);
    void start();
    void stop();

private:
    struct Seen
    {
        uint64_t offset = 0;       // bytes of agent.log already turned into lines
        long long ooms = -1;       // the cgroup's oom_kill count already accounted for
        long long pendingOoms = 0; // OOM kills not yet matched with a SIGKILL exit
        int pendingTicks = 0;
    };
    void schedule();
    void tick();
    void watch(const store::SandboxRecord& rec, Seen& seen);
    void readAgentLog(const std::string& id, Seen& seen, std::vector<AgentExit>& exits);
    std::string dirOf(const std::string& id) const { return m_dataDir + "/sandboxes/" + id; }

    store::Store& m_store;
    SandboxManager& m_sandboxes;
    http::net::thread_pool& m_workers;
    std::string m_dataDir;
    std::shared_ptr<http::net::steady_timer> m_timer;
    std::atomic<bool> m_stopped{false};
    std::map<std::string, Seen> m_seen; // worker pool, one tick at a time
};

} // namespace lizard::sandboxes
