// Store: volumes and which sandbox holds each one.
#include "store/store.h"

#include <algorithm>

namespace lizard::store {

namespace {

bool terminal(const SandboxRecord& s)
{
    return s.status == "stopped" || s.status == "failed" || s.status == "deleted";
}

Error notFound(const std::string& what)
{
    return Error{ErrorKind::NotFound, "NOT_FOUND", "volume " + what + " not found"};
}

} // namespace

Status Store::loadVolumes()
{
    std::lock_guard lock(m_db->mutex());
    Statement q(m_db->handle(), "SELECT id, project_id, name, size_gb, size_enforced, "
                                "attached_to, created_at FROM volumes");
    while (q.step()) {
        VolumeRecord v;
        v.id = q.text(0);
        v.projectId = q.text(1);
        v.name = q.text(2);
        v.sizeGb = int(q.integer(3));
        v.sizeEnforced = q.integer(4) != 0;
        v.attachedTo = q.text(5);
        v.createdAtMs = q.integer(6);
        // A holder the store never recorded was starting when lizard-local went away.
        if (!v.attachedTo.empty() && !m_sandboxes.count(v.attachedTo))
            v.attachedTo.clear();
        m_volumes[v.id] = v;
    }
    if (q.failed())
        return m_db->failure("cannot read volumes");
    return okStatus();
}

std::string Store::volumeHolder(const VolumeRecord& volume) const
{
    if (volume.attachedTo.empty())
        return {};
    const SandboxPtr s = sandbox(volume.attachedTo);
    if (s && terminal(*s))
        return {};
    return volume.attachedTo; // running, paused... or still starting (not recorded yet)
}

std::vector<VolumeRecord> Store::volumes(const std::string& projectId) const
{
    std::vector<VolumeRecord> out;
    {
        std::shared_lock lock(m_mutex);
        for (const auto& [id, v] : m_volumes) {
            if (v.projectId == projectId)
                out.push_back(v);
        }
    }
    std::sort(out.begin(), out.end(), [](const VolumeRecord& a, const VolumeRecord& b) {
        return a.createdAtMs != b.createdAtMs ? a.createdAtMs < b.createdAtMs : a.id < b.id;
    });
    return out;
}

std::optional<VolumeRecord> Store::volume(const std::string& projectId,
                                          const std::string& nameOrId) const
{
    std::shared_lock lock(m_mutex);
    if (const auto it = m_volumes.find(nameOrId);
        it != m_volumes.end() && it->second.projectId == projectId)
        return it->second;
    for (const auto& [id, v] : m_volumes) {
        if (v.projectId == projectId && v.name == nameOrId)
            return v;
    }
    return std::nullopt;
}

std::optional<VolumeRecord> Store::volumeOf(const std::string& sandboxId) const
{
    std::optional<VolumeRecord> found;
    {
        std::shared_lock lock(m_mutex);
        for (const auto& [id, v] : m_volumes) {
            if (v.attachedTo == sandboxId)
                found = v;
        }
    }
    if (found && volumeHolder(*found) != sandboxId)
        return std::nullopt;
    return found;
}

Status Store::insertVolume(const VolumeRecord& v)
{
    std::lock_guard writer(m_writeMutex);
    if (!project(v.projectId))
        return Error{ErrorKind::NotFound, "NOT_FOUND", "project " + v.projectId + " not found"};
    if (volume(v.projectId, v.name))
        return Error{ErrorKind::Conflict, "VOLUME_EXISTS",
                     "the project already has a volume named \"" + v.name + "\""};
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(), "INSERT INTO volumes(id, project_id, name, size_gb, "
                                    "size_enforced, attached_to, created_at) "
                                    "VALUES (?,?,?,?,?,?,?)");
        q.bind(1, v.id).bind(2, v.projectId).bind(3, v.name).bind(4, int64_t(v.sizeGb));
        q.bind(5, int64_t(v.sizeEnforced)).bind(6, v.attachedTo).bind(7, v.createdAtMs);
        if (!q.run())
            return m_db->failure("cannot store the volume");
    }
    std::unique_lock lock(m_mutex);
    m_volumes[v.id] = v;
    return okStatus();
}

Status Store::setVolumeSize(const std::string& id, int sizeGb, bool sizeEnforced)
{
    std::lock_guard writer(m_writeMutex);
    {
        std::shared_lock lock(m_mutex);
        if (!m_volumes.count(id))
            return notFound(id);
    }
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(),
                    "UPDATE volumes SET size_gb = ?, size_enforced = ? WHERE id = ?");
        q.bind(1, int64_t(sizeGb)).bind(2, int64_t(sizeEnforced)).bind(3, id);
        if (!q.run())
            return m_db->failure("cannot update the volume");
    }
    std::unique_lock lock(m_mutex);
    m_volumes[id].sizeGb = sizeGb;
    m_volumes[id].sizeEnforced = sizeEnforced;
    return okStatus();
}

Status Store::removeVolume(const std::string& id)
{
    std::lock_guard writer(m_writeMutex);
    std::optional<VolumeRecord> v;
    {
        std::shared_lock lock(m_mutex);
        if (const auto it = m_volumes.find(id); it != m_volumes.end())
            v = it->second;
    }
    if (!v)
        return notFound(id);
    if (const std::string holder = volumeHolder(*v); !holder.empty())
        return Error{ErrorKind::Conflict, "VOLUME_ATTACHED",
                     "volume " + v->name + " is attached to sandbox " + holder +
                         "; kill that sandbox first"};
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(), "DELETE FROM volumes WHERE id = ?");
        q.bind(1, id);
        if (!q.run())
            return m_db->failure("cannot delete the volume");
    }
    std::unique_lock lock(m_mutex);
    m_volumes.erase(id);
    return okStatus();
}

Status Store::writeVolumeAttachment(const std::string& volumeId, const std::string& sandboxId)
{
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(), "UPDATE volumes SET attached_to = ? WHERE id = ?");
        q.bind(1, sandboxId).bind(2, volumeId);
        if (!q.run())
            return m_db->failure("cannot update the volume");
    }
    std::unique_lock lock(m_mutex);
    m_volumes[volumeId].attachedTo = sandboxId;
    return okStatus();
}

Status Store::attachVolume(const std::string& volumeId, const std::string& sandboxId)
{
    std::lock_guard writer(m_writeMutex);
    std::optional<VolumeRecord> v;
    {
        std::shared_lock lock(m_mutex);
        if (const auto it = m_volumes.find(volumeId); it != m_volumes.end())
            v = it->second;
    }
    if (!v)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "volume " + volumeId + " was deleted"};
    if (const std::string holder = volumeHolder(*v); !holder.empty())
        return Error{ErrorKind::Conflict, "VOLUME_ATTACHED",
                     "volume " + v->name + " is already attached to sandbox " + holder +
                         " (a volume is attached to one sandbox at a time)"};
    return writeVolumeAttachment(volumeId, sandboxId);
}

void Store::detachVolume(const std::string& volumeId, const std::string& sandboxId)
{
    std::lock_guard writer(m_writeMutex);
    {
        std::shared_lock lock(m_mutex);
        const auto it = m_volumes.find(volumeId);
        if (it == m_volumes.end() || it->second.attachedTo != sandboxId)
            return;
    }
    writeVolumeAttachment(volumeId, {});
}

} // namespace lizard::store
