#pragma once
// The idle policy and waking on demand (api/DECISIONS.md, "Lifecycle policies"). Every use of
// a sandbox (a call that needs it running, terminal input, port-proxy traffic) restarts its
// idle time, and a call in flight keeps it busy. A sweep pauses the sandboxes that went
// idlePauseMinutes without use. A sandbox a policy paused (idle, or its deadline) is resumed by
// the next use that needs it: wake() resumes it once for every caller waiting at that moment.

#include "common/result.h"
#include "http/beast.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace lizard::store {
class Store;
}

namespace lizard::sandboxes {

class SandboxManager;

class IdleWatch
{
public:
    IdleWatch(SandboxManager& manager, store::Store& store, http::net::io_context& ioc,
              http::net::thread_pool& workers);
    ~IdleWatch();

    // How long one minute of idlePauseMinutes lasts (--idle-minute-ms; tests shorten it).
    void setMinuteMs(int64_t ms) { m_minuteMs = ms; }
    int64_t minuteMs() const { return m_minuteMs; }
    void start();
    void stop();

    // The clock of uses and waits (steady, ms).
    static int64_t clockMs();

    // A use of the sandbox: its idle time starts again. True when the sandbox is paused, or
    // being paused, by a policy: the caller wakes it before it needs it.
    bool touch(const std::string& id);
    // Held while a call that uses the sandbox is in flight: it is not idle meanwhile, and the
    // end of the call is a use too.
    std::shared_ptr<void> hold(const std::string& id);
    // Resumes the sandbox if a policy paused it; `then` gets the outcome on a worker thread.
    // OK also when there was nothing to do (a sandbox the user paused stays paused: the caller
    // answers as it always did). `trigger` names what wanted it (exec, files, port 8000...).
    void wake(const std::string& id, const std::string& trigger, std::function<void(Status)> then);
    // The sandbox ended.
    void forget(const std::string& id);

    // For the manager's policy pauses: marks a pause under way (a use meanwhile must wake the
    // sandbox after it), and ends the mark once the pause is done or given up.
    void beginPause(const std::string& id);
    void endPause(const std::string& id);
    // Whether an idle pause decided by the sweep still holds (nothing used it since).
    bool stillIdle(const std::string& id, int idlePauseMinutes) const;

private:
    struct Usage
    {
        int64_t lastUseMs = 0; // steady clock
        int holds = 0;
        bool pausing = false;
        bool waking = false;
        std::vector<std::function<void(Status)>> waiters;
    };
    // Shared with the holds, which may outlive this object at shutdown.
    struct Shared
    {
        std::mutex mutex;
        std::map<std::string, Usage> usage;
    };

    void scheduleSweep();
    void sweep();
    bool alive(const std::string& id) const;

    SandboxManager& m_manager;
    store::Store& m_store;
    http::net::io_context& m_ioc;
    http::net::thread_pool& m_workers;
    int64_t m_minuteMs = 60000;
    std::shared_ptr<Shared> m_shared = std::make_shared<Shared>();
    std::mutex m_timerMutex;
    std::shared_ptr<http::net::steady_timer> m_timer;
    bool m_stopped = false;
};

} // namespace lizard::sandboxes
