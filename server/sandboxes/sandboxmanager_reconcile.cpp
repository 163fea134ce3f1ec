// SandboxManager::reconcileAtStartup: what the store says is running vs what really runs.
#include "common/log.h"
#include "common/timeutil.h"
#include "sandboxes/sandboxmanager.h"
#include "sandboxes/snapshotservice.h"

namespace lizard::sandboxes {

// A sandbox is adopted when its PID 1 is still there. One paused (or frozen for a file copy)
// when lizard-local stopped cannot answer a ping; store and freezer agree afterwards: a paused
// record whose processes run again becomes running; a frozen running one is thawed.
// True if the sandbox is alive and now matches its record.
bool SandboxManager::adoptPresent(const store::SandboxRecord& rec)
{
    if (!m_runtime.isPresent(rec.handle))
        return false;
    const bool frozen = m_runtime.isFrozen(rec.handle);
    if (rec.paused() && frozen)
        return true;
    if (rec.paused()) {
        m_store.setPaused(rec.id, false);
        return true;
    }
    if (frozen && !m_runtime.thaw(rec.handle)) // frozen by a crash during a snapshot or fork copy
        return false;
    // Running and not frozen: its PID 1 (pid and start time) is there, so it is this
    // sandbox, whether or not it answers now (at its pids limit it may not).
    return true;
}

void SandboxManager::reconcileAtStartup()
{
    std::vector<std::string> adopted;
    const int64_t now = nowMs();
    for (const store::SandboxPtr& rec : m_store.runningSandboxes()) {
        // One whose deadline pauses it is adopted: its deadline timer fires at once.
        if (rec->endAtMs != 0 && rec->endAtMs <= now && rec->onTimeout != kOnTimeoutPause) {
            m_store.markStopped(rec->id, "expired");
            m_runtime.destroy(rec->handle);
            log::info("sandbox " + rec->id +
                      ": its deadline passed while lizard-local was down; destroyed");
            continue;
        }
        if (adoptPresent(*rec)) {
            adopted.push_back(rec->id);
            m_runtime.adopt(rec->handle);
            if (store::SandboxPtr adoptedRec = m_store.sandbox(rec->id))
                renewLease(*adoptedRec);
            if (rec->endAtMs != 0)
                armDeadline(rec->id, rec->endAtMs);
            log::info("sandbox " + rec->id + ": still running (pid " +
                      std::to_string(rec->handle.initPid) + "); adopted");
            continue;
        }
        m_store.markStopped(rec->id, "lost");
        m_runtime.destroy(rec->handle);
        log::warn("sandbox " + rec->id + ": its agent is gone; marked stopped and cleaned up");
    }
    m_runtime.cleanupOrphans(adopted);
    m_snapshotService->reconcileAtStartup();
    log::info("startup: " + std::to_string(adopted.size()) + " running sandbox(es) adopted");
}

} // namespace lizard::sandboxes
