// Store: the pause state of sandboxes (and who paused them).
#include "store/store.h"

namespace lizard::store {

Status Store::updateSandbox(const std::string& id, const std::string& sql,
                            const std::function<void(SandboxRecord&)>& change)
{
    std::lock_guard writer(m_writeMutex);
    SandboxPtr old = sandbox(id);
    if (!old || !old->running())
        return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " not found"};
    auto updated = std::make_shared<SandboxRecord>(*old);
    change(*updated);
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(), sql);
        q.bind(1, updated->status).bind(2, updated->pauseError).bind(3, updated->pausedBy);
        q.bind(4, id);
        if (!q.run())
            return m_db->failure("cannot update the sandbox");
    }
    std::unique_lock lock(m_mutex);
    m_sandboxes[id] = updated;
    return okStatus();
}

Status Store::setPaused(const std::string& id, bool paused, const std::string& by)
{
    return updateSandbox(
        id, "UPDATE sandboxes SET status = ?, pause_error = ?, paused_by = ? WHERE id = ?",
        [paused, &by](SandboxRecord& r) {
            r.status = paused ? "paused" : "running";
            r.pauseError.clear();
            r.pausedBy = paused ? by : std::string();
        });
}

Status Store::setPauseError(const std::string& id, const std::string& error)
{
    return updateSandbox(
        id, "UPDATE sandboxes SET status = ?, pause_error = ?, paused_by = ? WHERE id = ?",
        [&error](SandboxRecord& r) { r.pauseError = error; });
}

} // namespace lizard::store
