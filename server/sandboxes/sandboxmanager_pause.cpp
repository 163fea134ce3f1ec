// SandboxManager: pause and resume (cgroup freezer through the runtime), and the rule that a
// paused sandbox takes no exec, process or file call.
#include "common/log.h"
#include "sandboxes/sandboxmanager.h"

namespace lizard::sandboxes {

namespace net = http::net;

Result<store::SandboxPtr> SandboxManager::active(const std::string& id) const
{
    auto rec = running(id);
    if (!rec)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " not found"};
    if (rec->paused())
        return Error{ErrorKind::Conflict, "SANDBOX_PAUSED",
                     "sandbox " + id + " is paused; resume it first (POST /api/sandboxes/" + id +
                         "/resume)"};
    return rec;
}

SandboxManager::OperationLock SandboxManager::lockOperations(const std::string& id)
{
    std::shared_ptr<std::mutex> m;
    {
        std::lock_guard lock(m_mutex);
        // A sandbox already killed gets no entry (its kill dropped it, after marking it
        // stopped): the caller finds it gone and returns; the map does not grow.
        if (!running(id))
            return OperationLock(std::make_shared<std::mutex>());
        auto& slot = m_operationLocks[id];
        if (!slot)
            slot = std::make_shared<std::mutex>();
        m = slot;
    }
    // The map shares the mutex for the sandbox's lifetime (a kill drops its entry); the lock
    // keeps its own reference until it is released.
    return OperationLock(std::move(m));
}

void SandboxManager::pause(const std::string& id, std::function<void(Status)> done)
{
    net::post(m_workers, [this, id, done = std::move(done)] {
        auto ops = lockOperations(id);
        const auto rec = running(id);
        if (!rec)
            return done(Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " not found"});
        if (rec->paused())
            return done(okStatus());
        if (Status s = m_runtime.freeze(rec->handle); !s) {
            m_store.setPauseError(id, s.error().message);
            log::warn("sandbox " + id + ": pause failed: " + s.error().message);
            return done(s);
        }
        if (Status s = m_store.setPaused(id, true); !s) {
            m_runtime.thaw(rec->handle);
            return done(s);
        }
        recordActivity(id, "pause");
        log::info("sandbox " + id + " paused");
        m_logs.append(id, "info", "lifecycle", "paused");
        done(okStatus());
    });
}

void SandboxManager::resume(const std::string& id, std::function<void(Status)> done)
{
    net::post(m_workers, [this, id, done = std::move(done)] {
        auto ops = lockOperations(id);
        const auto rec = running(id);
        if (!rec)
            return done(Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " not found"});
        if (!rec->paused())
            return done(okStatus());
        if (Status s = m_runtime.thaw(rec->handle); !s) {
            m_store.setPauseError(id, s.error().message);
            log::warn("sandbox " + id + ": resume failed: " + s.error().message);
            return done(s);
        }
        if (Status s = m_store.setPaused(id, false); !s)
            return done(s);
        if (store::SandboxPtr now = running(id))
            renewLease(*now);
        recordActivity(id, "resume");
        log::info("sandbox " + id + " resumed");
        m_logs.append(id, "info", "lifecycle", "resumed");
        done(okStatus());
    });
}

} // namespace lizard::sandboxes
