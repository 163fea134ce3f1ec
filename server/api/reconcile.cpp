// SandboxManager::reconcileAtStartup: what the store says is running vs what really runs.
#include "api/sandboxmanager.h"
#include "api/snapshotservice.h"
#include "common/log.h"
#include "common/timeutil.h"

namespace lizard::api {

// A sandbox paused (or frozen for a file copy) when lizard-local stopped: its processes are
// still there but its agent cannot answer a ping. Store and freezer agree afterwards: a
// paused record whose processes run again becomes running; a frozen running one is thawed.
// True if the sandbox is alive and now matches its record.
bool SandboxManager::adoptPaused(const store::SandboxRecord& rec)
{
    if (!m_runtime.isPresent(rec.handle))
        return false;
    const bool frozen = m_runtime.isFrozen(rec.handle);
    if (rec.paused() && frozen)
        return true;
    if (rec.paused()) {
        m_store.setPaused(rec.id, false);
        return m_runtime.isAlive(rec.handle);
    }
    if (frozen && m_runtime.thaw(rec.handle)) // a crash during a snapshot or fork copy
        return m_runtime.isAlive(rec.handle);
    return false; // running and not frozen: the caller pings it
}

void SandboxManager::reconcileAtStartup()
{
    std::vector<std::string> adopted;
    const int64_t now = nowMs();
    for (const store::SandboxPtr& rec : m_store.runningSandboxes()) {
        if (rec->endAtMs != 0 && rec->endAtMs <= now) {
            m_store.markStopped(rec->id, "expired");
            m_runtime.destroy(rec->handle);
            log::info("sandbox " + rec->id +
                      ": its deadline passed while lizard-local was down; destroyed");
            continue;
        }
        if (adoptPaused(*rec) || m_runtime.isAlive(rec->handle)) {
            adopted.push_back(rec->id);
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

} // namespace lizard::api
