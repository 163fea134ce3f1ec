#include "api/restoreparams.h"

#include "api/jsonbody.h"
#include "api/sizes.h"
#include "sandboxes/snapshotservice.h"
#include "sandboxes/templates/templatebuilder.h"

#include <algorithm>

namespace lizard::api {

Result<std::string> applySnapshot(const nlohmann::json& body, sandboxes::CreateSandboxParams& p,
                                  sandboxes::SnapshotService& snapshots)
{
    Fields f(body);
    auto id = f.optString("snapshotId");
    if (!id)
        return id.error();
    if (!*id)
        return std::string();
    auto snap = snapshots.acquire(**id);
    if (!snap)
        return snap.error();
    const store::SnapshotRecord& s = **snap;
    const bool projectGiven = body.contains("projectId") && !body["projectId"].is_null();
    if (projectGiven && p.projectId != s.projectId) {
        snapshots.release(s.id);
        return Error{ErrorKind::Forbidden, "SNAPSHOT_SCOPE",
                     "snapshot " + s.id + " restores only in its own project (" + s.projectId +
                         ")"};
    }
    if (Status applied = applySnapshotRecord(s, body, p); !applied) {
        snapshots.release(s.id);
        return applied.error();
    }
    return s.id;
}

Result<std::string> applyTemplateVersion(const nlohmann::json& body,
                                         sandboxes::CreateSandboxParams& p,
                                         const sandboxes::TemplateBuilder& templates,
                                         sandboxes::SnapshotService& snapshots)
{
    const auto v = templates.resolve(p.templateName);
    if (!v)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "template " + p.templateName + " not found"};
    if (body.contains("snapshotId") && !body["snapshotId"].is_null())
        return invalidArgument("give either a template built from a recipe or snapshotId, not "
                               "both (the template is its own snapshot)");
    p.templateName = v->base;
    std::map<std::string, std::string> envs = v->envs;
    for (const auto& [k, value] : p.envs)
        envs[k] = value;
    p.envs = std::move(envs);
    p.metadata["lizard.template"] = v->name + ":" + std::to_string(v->version);
    if (v->snapshotId.empty())
        return std::string(); // no files of its own: its base, with its env
    auto snap = snapshots.acquire(v->snapshotId);
    if (!snap)
        return snap.error();
    const std::string projectId = p.projectId;
    const std::string size = p.size;
    const runtime::Limits limits = p.limits;
    if (Status applied = applySnapshotRecord(**snap, body, p); !applied) {
        snapshots.release(v->snapshotId);
        return applied.error();
    }
    p.projectId = projectId;
    if (body.contains("size")) {
        p.size = size;
        p.limits = limits;
    }
    return v->snapshotId;
}

Status applySnapshotRecord(const store::SnapshotRecord& s, const nlohmann::json& body,
                           sandboxes::CreateSandboxParams& p)
{
    const auto limits = limitsForSize(s.size);
    if (!limits)
        return Error{ErrorKind::Internal, "INTERNAL",
                     "snapshot " + s.id + " has an unknown size " + s.size};
    p.projectId = s.projectId;
    p.templateName = s.templateName;
    p.size = s.size;
    p.limits = *limits;
    std::map<std::string, std::string> envs = s.envs;
    for (const auto& [k, v] : p.envs)
        envs[k] = v;
    p.envs = std::move(envs);
    p.filesFrom = s.id;
    if (!p.shmExplicit && s.shmMb > 0)
        p.shmMb = std::min(s.shmMb, p.limits.memoryMb);
    // Without an explicit diskGb the restored sandbox gets its source's disk size: its files
    // were on a disk of that size. A snapshot from before sizes were recorded gets a disk its
    // files fit on (metadata and a margin to keep working), at least the default size.
    if (!body.contains("diskGb")) {
        const long long needed = static_cast<long long>(s.sizeBytes * 1.1) / (1LL << 30) + 2;
        p.diskGb =
            s.diskGb > 0
                ? s.diskGb
                : int(std::clamp<long long>(needed, p.diskGb, runtime::SandboxDisks::kMaxGb));
    }
    return okStatus();
}

Status checkShmSize(sandboxes::CreateSandboxParams& p)
{
    if (!p.shmExplicit)
        p.shmMb = std::clamp(p.shmMb, 1, std::max(1, p.limits.memoryMb));
    if (p.shmMb >= 1 && p.shmMb <= p.limits.memoryMb)
        return okStatus();
    return invalidArgument("field \"shmMb\" must be an integer from 1 to " +
                           std::to_string(p.limits.memoryMb) +
                           " (MiB of /dev/shm, at most the memory of size \"" + p.size + "\")");
}

} // namespace lizard::api
