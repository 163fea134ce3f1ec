// Store: snapshots.
#include "store/jsoncolumns.h"
#include "store/store.h"

#include <algorithm>

namespace lizard::store {

Status Store::loadSnapshots()
{
    std::lock_guard lock(m_db->mutex());
    Statement q(m_db->handle(),
                "SELECT id, name, project_id, source_sandbox_id, template, size, cpus, memory_mb, "
                "envs, internet_access, status, error, size_bytes, created_at, disk_gb, shm_mb, "
                "pool_size, pool_paused FROM snapshots");
    while (q.step()) {
        auto r = std::make_shared<SnapshotRecord>();
        r->id = q.text(0);
        r->name = q.text(1);
        r->projectId = q.text(2);
        r->sourceSandboxId = q.text(3);
        r->templateName = q.text(4);
        r->size = q.text(5);
        r->cpus = q.real(6);
        r->memoryMb = int(q.integer(7));
        r->envs = mapFromJson(q.text(8));
        r->internetAccess = q.integer(9) != 0;
        r->status = q.text(10);
        r->error = q.text(11);
        r->sizeBytes = q.integer(12);
        r->createdAtMs = q.integer(13);
        r->diskGb = int(q.integer(14));
        r->shmMb = int(q.integer(15));
        r->poolSize = int(q.integer(16));
        r->poolPaused = q.integer(17) != 0;
        m_snapshots[r->id] = r;
    }
    if (q.failed())
        return m_db->failure("cannot read snapshots");
    return okStatus();
}

std::vector<Store::SnapshotPtr> Store::snapshots(const std::string& projectId) const
{
    std::shared_lock lock(m_mutex);
    std::vector<SnapshotPtr> out;
    for (const auto& [id, r] : m_snapshots) {
        if (projectId.empty() || r->projectId == projectId)
            out.push_back(r);
    }
    std::sort(out.begin(), out.end(), [](const SnapshotPtr& a, const SnapshotPtr& b) {
        return a->createdAtMs != b->createdAtMs ? a->createdAtMs > b->createdAtMs : a->id < b->id;
    });
    return out;
}

Store::SnapshotPtr Store::snapshot(const std::string& id) const
{
    std::shared_lock lock(m_mutex);
    const auto it = m_snapshots.find(id);
    return it == m_snapshots.end() ? nullptr : it->second;
}

Status Store::insertSnapshot(const SnapshotRecord& r)
{
    std::lock_guard writer(m_writeMutex);
    if (!project(r.projectId))
        return Error{ErrorKind::NotFound, "NOT_FOUND", "project " + r.projectId + " not found"};
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(
            m_db->handle(),
            "INSERT INTO snapshots(id, name, project_id, source_sandbox_id, template, size, "
            "cpus, memory_mb, envs, internet_access, status, error, size_bytes, created_at, "
            "disk_gb, shm_mb, pool_size) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
        q.bind(1, r.id).bind(2, r.name).bind(3, r.projectId).bind(4, r.sourceSandboxId);
        q.bind(5, r.templateName).bind(6, r.size).bind(7, r.cpus).bind(8, int64_t(r.memoryMb));
        q.bind(9, mapToJson(r.envs)).bind(10, int64_t(r.internetAccess));
        q.bind(11, r.status).bind(12, r.error).bind(13, r.sizeBytes).bind(14, r.createdAtMs);
        q.bind(15, int64_t(r.diskGb)).bind(16, int64_t(r.shmMb)).bind(17, int64_t(r.poolSize));
        if (!q.run())
            return m_db->failure("cannot store the snapshot");
    }
    std::unique_lock lock(m_mutex);
    m_snapshots[r.id] = std::make_shared<const SnapshotRecord>(r);
    return okStatus();
}

Status Store::updateSnapshot(const SnapshotRecord& r)
{
    std::lock_guard writer(m_writeMutex);
    const auto current = snapshot(r.id);
    if (!current)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "snapshot " + r.id + " not found"};
    auto updated = std::make_shared<SnapshotRecord>(*current); // keeps a rename made meanwhile
    updated->status = r.status;
    updated->error = r.error;
    updated->sizeBytes = r.sizeBytes;
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(),
                    "UPDATE snapshots SET status = ?, error = ?, size_bytes = ? WHERE id = ?");
        q.bind(1, r.status).bind(2, r.error).bind(3, r.sizeBytes).bind(4, r.id);
        if (!q.run())
            return m_db->failure("cannot update the snapshot");
    }
    std::unique_lock lock(m_mutex);
    m_snapshots[r.id] = updated;
    return okStatus();
}

Status Store::renameSnapshot(const std::string& id, const std::string& name)
{
    std::lock_guard writer(m_writeMutex);
    const auto current = snapshot(id);
    if (!current)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "snapshot " + id + " not found"};
    auto updated = std::make_shared<SnapshotRecord>(*current);
    updated->name = name;
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(), "UPDATE snapshots SET name = ? WHERE id = ?");
        q.bind(1, name).bind(2, id);
        if (!q.run())
            return m_db->failure("cannot rename the snapshot");
    }
    std::unique_lock lock(m_mutex);
    m_snapshots[id] = updated;
    return okStatus();
}

Status Store::setSnapshotPool(const std::string& id, int poolSize, bool paused)
{
    std::lock_guard writer(m_writeMutex);
    const auto current = snapshot(id);
    if (!current)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "snapshot " + id + " not found"};
    auto updated = std::make_shared<SnapshotRecord>(*current);
    updated->poolSize = poolSize;
    updated->poolPaused = paused;
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(),
                    "UPDATE snapshots SET pool_size = ?, pool_paused = ? WHERE id = ?");
        q.bind(1, int64_t(poolSize)).bind(2, int64_t(paused)).bind(3, id);
        if (!q.run())
            return m_db->failure("cannot change the snapshot's pool");
    }
    std::unique_lock lock(m_mutex);
    m_snapshots[id] = updated;
    return okStatus();
}

std::map<std::string, int> Store::templatePools() const
{
    std::lock_guard lock(m_db->mutex());
    std::map<std::string, int> out;
    Statement q(m_db->handle(), "SELECT template, pool_size FROM template_pools");
    while (q.step())
        out[q.text(0)] = int(q.integer(1));
    return out;
}

Status Store::setTemplatePool(const std::string& templateName, int poolSize)
{
    std::lock_guard writer(m_writeMutex);
    std::lock_guard lock(m_db->mutex());
    Statement q(m_db->handle(),
                "INSERT INTO template_pools(template, pool_size) VALUES (?, ?) "
                "ON CONFLICT(template) DO UPDATE SET pool_size = excluded.pool_size");
    q.bind(1, templateName).bind(2, int64_t(poolSize));
    if (!q.run())
        return m_db->failure("cannot store the template's pool size");
    return okStatus();
}

Status Store::removeSnapshot(const std::string& id)
{
    std::lock_guard writer(m_writeMutex);
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(), "DELETE FROM snapshots WHERE id = ?");
        q.bind(1, id);
        if (!q.run())
            return m_db->failure("cannot remove the snapshot");
    }
    std::unique_lock lock(m_mutex);
    m_snapshots.erase(id);
    return okStatus();
}

} // namespace lizard::store
