#pragma once
// What every connection handler of the agent shares.

#include "agent/serve/lease.h"
#include "agent/serve/processtable.h"
#include "agent/serve/reaper.h"
#include "agent/serve/runnerzygote.h"
#include "agent/serve/watchhub.h"

#include <atomic>
#include <map>
#include <mutex>
#include <string>

namespace lizard::agent {

// The sandbox's create-time envs, applied to every exec. Set at launch, and replaced once more
// when lizard-local hands a warm copy to its caller ({"op":"claim"}) while execs may be starting.
class SandboxEnvs
{
public:
    void set(std::map<std::string, std::string> envs)
    {
        std::lock_guard lock(m_mutex);
        m_envs = std::move(envs);
    }
    std::map<std::string, std::string> get() const
    {
        std::lock_guard lock(m_mutex);
        return m_envs;
    }

private:
    mutable std::mutex m_mutex;
    std::map<std::string, std::string> m_envs;
};

struct AgentContext
{
    SandboxEnvs envs;
    bool singleUid = false;
    Reaper reaper;
    ProcessTable processes;
    Lease lease;
    // Set by lizard-local's disk watch while the sandbox's layer is over its size: what exec
    // starts gets RLIMIT_FSIZE 0 from its first instruction (runtime/diskwatch.h).
    std::atomic<bool> diskFull{false};
    WatchHub watches;     // fs.watch
    RunnerZygote runners; // the official SDK's runCode, warm
};

} // namespace lizard::agent
