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

Status SandboxManager::freezeLocked(const store::SandboxRecord& rec, const std::string& by)
{
    if (Status s = m_runtime.freeze(rec.handle); !s) {
        m_store.setPauseError(rec.id, s.error().message);
        log::warn("sandbox " + rec.id + ": pause failed: " + s.error().message);
        return s;
    }
    if (Status s = m_store.setPaused(rec.id, true, by); !s) {
        m_runtime.thaw(rec.handle);
        return s;
    }
    return okStatus();
}

Result<int64_t> SandboxManager::thawLocked(const store::SandboxRecord& rec)
{
    if (Status s = m_runtime.thaw(rec.handle); !s) {
        m_store.setPauseError(rec.id, s.error().message);
        log::warn("sandbox " + rec.id + ": resume failed: " + s.error().message);
        return s.error();
    }
    if (Status s = m_store.setPaused(rec.id, false); !s)
        return s.error();
    const int64_t restartedEndAt = restartLifetime(rec);
    if (store::SandboxPtr now = running(rec.id))
        renewLease(*now);
    m_idle->touch(rec.id); // a resumed sandbox gets its whole idle time again
    return restartedEndAt;
}

void SandboxManager::pause(const std::string& id, std::function<void(Status)> done)
{
    net::post(m_workers, [this, id, done = std::move(done)] {
        auto ops = lockOperations(id);
        const auto rec = running(id);
        if (!rec)
            return done(Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " not found"});
        if (rec->paused()) {
            // Paused by a policy: the user's pause makes it stay paused until resumed.
            if (rec->pausedBy != kPausedByUser)
                m_store.setPaused(id, true, kPausedByUser);
            return done(okStatus());
        }
        if (Status s = freezeLocked(*rec, kPausedByUser); !s)
            return done(s);
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
        const auto thawed = thawLocked(*rec);
        if (!thawed)
            return done(thawed.error());
        recordActivity(id, "resume");
        log::info("sandbox " + id + " resumed");
        m_logs.append(id, "info", "lifecycle", "resumed" + lifetimeNote(*rec, thawed.value()));
        done(okStatus());
    });
}

} // namespace lizard::sandboxes
