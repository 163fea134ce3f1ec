// SandboxManager::reconcileAtStartup: what the store says is running vs what really runs.
#include "api/sandboxmanager.h"
#include "common/log.h"
#include "common/timeutil.h"

namespace lizard::api {

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
        if (m_runtime.isAlive(rec->handle)) {
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
    log::info("startup: " + std::to_string(adopted.size()) + " running sandbox(es) adopted");
}

} // namespace lizard::api
