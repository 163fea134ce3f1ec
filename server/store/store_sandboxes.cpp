// Store: sandboxes (running ones and the history of stopped ones).
#include "common/timeutil.h"
#include "store/jsoncolumns.h"
#include "store/store.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace lizard::store {

Status Store::loadSandboxes()
{
    std::lock_guard lock(m_db->mutex());
    Statement q(m_db->handle(),
                "SELECT id, project_id, template, size, cpus, memory_mb, "
                "limits_enforced, status, started_at, "
                "end_at, metadata, envs, internet_access, init_pid, "
                "init_start_time, socket_path, stopped_at, "
                "stop_reason, pause_error, allowed_hosts, shm_mb, from_pool, on_timeout, "
                "idle_pause_minutes, timeout_ms, paused_by FROM sandboxes");
    while (q.step()) {
        auto r = std::make_shared<SandboxRecord>();
        r->id = q.text(0);
        r->projectId = q.text(1);
        r->templateName = q.text(2);
        r->size = q.text(3);
        r->cpus = q.real(4);
        r->memoryMb = int(q.integer(5));
        // limits_enforced: bit 0 cgroup limits, bit 1 rlimits (older rows: 0 or 1).
        r->limitsEnforced = (q.integer(6) & 1) != 0;
        r->handle.rlimitsApplied = (q.integer(6) & 2) != 0;
        r->status = q.text(7);
        r->startedAtMs = q.integer(8);
        r->endAtMs = q.integer(9);
        r->metadata = mapFromJson(q.text(10));
        r->envs = mapFromJson(q.text(11));
        r->internetAccess = q.integer(12) != 0;
        r->handle.id = r->id;
        r->handle.initPid = pid_t(q.integer(13));
        r->handle.initStartTime = static_cast<unsigned long long>(q.integer(14));
        r->handle.socketPath = q.text(15);
        r->handle.limitsEnforced = r->limitsEnforced;
        r->handle.internetAccess = r->internetAccess;
        r->stoppedAtMs = q.integer(16);
        r->stopReason = q.text(17);
        r->pauseError = q.text(18);
        r->allowedHosts = listFromJson(q.text(19));
        r->shmMb = int(q.integer(20));
        r->fromPool = q.integer(21) != 0;
        r->onTimeout = q.text(22);
        r->idlePauseMinutes = int(q.integer(23));
        r->timeoutMs = q.integer(24);
        r->pausedBy = q.text(25);
        m_sandboxes[r->id] = r;
    }
    if (q.failed())
        return m_db->failure("cannot read sandboxes");
    return okStatus();
}

SandboxPtr Store::sandbox(const std::string& id) const
{
    std::shared_lock lock(m_mutex);
    const auto it = m_sandboxes.find(id);
    return it == m_sandboxes.end() ? nullptr : it->second;
}

std::vector<SandboxPtr> Store::runningSandboxes(const std::string& projectId) const
{
    std::shared_lock lock(m_mutex);
    std::vector<SandboxPtr> out;
    for (const auto& [id, r] : m_sandboxes) {
        if (r->running() && (projectId.empty() || r->projectId == projectId))
            out.push_back(r);
    }
    std::sort(out.begin(), out.end(), [](const SandboxPtr& a, const SandboxPtr& b) {
        return a->startedAtMs != b->startedAtMs ? a->startedAtMs < b->startedAtMs : a->id < b->id;
    });
    return out;
}

int Store::runningCount() const
{
    std::shared_lock lock(m_mutex);
    int n = 0;
    for (const auto& [id, r] : m_sandboxes)
        n += r->running() ? 1 : 0;
    return n;
}

Status Store::insertSandbox(const SandboxRecord& r)
{
    std::lock_guard writer(m_writeMutex);
    if (!project(r.projectId))
        return Error{ErrorKind::Conflict, "CONFLICT",
                     "project " + r.projectId + " was deleted while the sandbox started"};
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(),
                    "INSERT INTO sandboxes(id, project_id, template, size, cpus, memory_mb, "
                    "limits_enforced, status, "
                    "started_at, end_at, metadata, envs, internet_access, init_pid, "
                    "init_start_time, socket_path, "
                    "stopped_at, stop_reason, allowed_hosts, shm_mb, from_pool, on_timeout, "
                    "idle_pause_minutes, timeout_ms, paused_by) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
        q.bind(1, r.id)
            .bind(2, r.projectId)
            .bind(3, r.templateName)
            .bind(4, r.size)
            .bind(5, r.cpus);
        q.bind(6, int64_t(r.memoryMb))
            .bind(7, int64_t(r.limitsEnforced ? 1 : 0) | (r.handle.rlimitsApplied ? 2 : 0))
            .bind(8, r.status);
        q.bind(9, r.startedAtMs)
            .bind(10, r.endAtMs)
            .bind(11, mapToJson(r.metadata))
            .bind(12, mapToJson(r.envs));
        q.bind(13, int64_t(r.internetAccess)).bind(14, int64_t(r.handle.initPid));
        q.bind(15, int64_t(r.handle.initStartTime)).bind(16, r.handle.socketPath);
        q.bind(17, r.stoppedAtMs).bind(18, r.stopReason);
        q.bind(19, nlohmann::json(r.allowedHosts).dump()).bind(20, int64_t(r.shmMb));
        q.bind(21, int64_t(r.fromPool));
        q.bind(22, r.onTimeout).bind(23, int64_t(r.idlePauseMinutes));
        q.bind(24, r.timeoutMs).bind(25, r.pausedBy);
        if (!q.run())
            return m_db->failure("cannot store the sandbox");
    }
    std::unique_lock lock(m_mutex);
    m_sandboxes[r.id] = std::make_shared<const SandboxRecord>(r);
    return okStatus();
}

SandboxPtr Store::markStopped(const std::string& id, const std::string& reason)
{
    std::lock_guard writer(m_writeMutex);
    SandboxPtr old = sandbox(id);
    if (!old || !old->running())
        return nullptr;
    auto updated = std::make_shared<SandboxRecord>(*old);
    updated->status = "stopped";
    updated->stoppedAtMs = nowMs();
    updated->stopReason = reason;
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(), "UPDATE sandboxes SET status = 'stopped', stopped_at = ?, "
                                    "stop_reason = ? WHERE id = ?");
        q.bind(1, updated->stoppedAtMs).bind(2, reason).bind(3, id);
        // Even if the row cannot be updated the sandbox is going away: the view says so, and
        // the next start finds the row "running", sees the agent dead and cleans up.
        q.run();
    }
    std::unique_lock lock(m_mutex);
    m_sandboxes[id] = updated;
    return old;
}

Status Store::setEndAt(const std::string& id, int64_t endAtMs)
{
    std::lock_guard writer(m_writeMutex);
    SandboxPtr old = sandbox(id);
    if (!old || !old->running())
        return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " not found"};
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(), "UPDATE sandboxes SET end_at = ? WHERE id = ?");
        q.bind(1, endAtMs).bind(2, id);
        if (!q.run())
            return m_db->failure("cannot update the sandbox");
    }
    auto updated = std::make_shared<SandboxRecord>(*old);
    updated->endAtMs = endAtMs;
    std::unique_lock lock(m_mutex);
    m_sandboxes[id] = updated;
    return okStatus();
}

} // namespace lizard::store
