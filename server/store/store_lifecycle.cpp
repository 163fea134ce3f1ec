// Store: the lifecycle policies of sandboxes (what the deadline does, the idle pause) and
// their deadline with the lifetime it came from.
#include "store/store.h"

namespace lizard::store {

Status Store::setLifecyclePolicy(const std::string& id, const std::string& onTimeout,
                                 int idlePauseMinutes)
{
    std::lock_guard writer(m_writeMutex);
    SandboxPtr old = sandbox(id);
    if (!old || !old->running())
        return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " not found"};
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(),
                    "UPDATE sandboxes SET on_timeout = ?, idle_pause_minutes = ? WHERE id = ?");
        q.bind(1, onTimeout).bind(2, int64_t(idlePauseMinutes)).bind(3, id);
        if (!q.run())
            return m_db->failure("cannot update the sandbox");
    }
    auto updated = std::make_shared<SandboxRecord>(*old);
    updated->onTimeout = onTimeout;
    updated->idlePauseMinutes = idlePauseMinutes;
    std::unique_lock lock(m_mutex);
    m_sandboxes[id] = updated;
    return okStatus();
}

Status Store::setDeadline(const std::string& id, int64_t endAtMs, int64_t timeoutMs)
{
    std::lock_guard writer(m_writeMutex);
    SandboxPtr old = sandbox(id);
    if (!old || !old->running())
        return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " not found"};
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(), "UPDATE sandboxes SET end_at = ?, timeout_ms = ? WHERE id = ?");
        q.bind(1, endAtMs).bind(2, timeoutMs).bind(3, id);
        if (!q.run())
            return m_db->failure("cannot update the sandbox");
    }
    auto updated = std::make_shared<SandboxRecord>(*old);
    updated->endAtMs = endAtMs;
    updated->timeoutMs = timeoutMs;
    std::unique_lock lock(m_mutex);
    m_sandboxes[id] = updated;
    return okStatus();
}

} // namespace lizard::store
