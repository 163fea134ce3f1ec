// SandboxManager: a volume at /workspace of a sandbox being created.
#include "common/log.h"
#include "sandboxes/sandboxmanager.h"

namespace lizard::sandboxes {

void SandboxManager::runOnWorker(std::function<void()> fn)
{
    http::net::post(m_workers, std::move(fn));
}

Result<runtime::VolumeMount> SandboxManager::attachVolume(const std::string& volumeId,
                                                          runtime::SandboxSpec& spec)
{
    if (!m_volumes)
        return Error{ErrorKind::NotImplemented, "NOT_IMPLEMENTED",
                     "volumes are not available in this lizard-local"};
    if (Status s = m_store.attachVolume(volumeId, spec.id); !s)
        return s.error();
    const std::optional<store::VolumeRecord> v = m_store.volumeOf(spec.id);
    if (!v) {
        m_store.detachVolume(volumeId, spec.id);
        return Error{ErrorKind::NotFound, "NOT_FOUND", "volume " + volumeId + " was deleted"};
    }
    auto mount = m_volumes->prepareAttach(v->id, v->sizeEnforced);
    if (!mount) {
        m_store.detachVolume(volumeId, spec.id);
        log::warn("volume " + v->id + " could not be prepared for " + spec.id + ": " +
                  mount.error().message);
        return mount.error();
    }
    spec.volumeDir = mount->hostDir;
    spec.volumeInitOwner = mount->initOwner;
    return mount;
}

void SandboxManager::finishVolume(const std::string& volumeId, const std::string& sandboxId,
                                  bool started, const runtime::VolumeMount& mount)
{
    const auto v = m_store.volumeOf(sandboxId);
    m_volumes->finishAttach(volumeId, v && v->sizeEnforced, started, mount);
    if (!started)
        m_store.detachVolume(volumeId, sandboxId);
    else
        log::info("volume " + volumeId + " attached to " + sandboxId + " at /workspace");
}

} // namespace lizard::sandboxes
