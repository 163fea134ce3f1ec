#include "api/views.h"

#include "api/lifecyclerequest.h"
#include "api/sizes.h"
#include "common/timeutil.h"

namespace lizard::api {

nlohmann::json projectJson(const store::ProjectRecord& p)
{
    return {{"id", p.id},
            {"name", p.name},
            {"slug", p.slug},
            {"workspaceId", p.workspaceId},
            {"createdAt", isoUtc(p.createdAtMs)}};
}

nlohmann::json sandboxJson(const store::SandboxRecord& s, const runtime::DiskState& disk)
{
    nlohmann::json j = {
        {"sandboxId", s.id},
        {"template", s.templateName},
        {"projectId", s.projectId},
        {"startedAt", isoUtc(s.startedAtMs)},
        {"endAt", s.endAtMs != 0 ? nlohmann::json(isoUtc(s.endAtMs)) : nlohmann::json(nullptr)},
        {"status", s.status},
        {"size", s.size},
        {"region", "local"},
        {"runtime", "container"},
        {"pauseError",
         s.pauseError.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.pauseError)},
        {"internetAccess", s.internetAccess},
        {"allowedHosts", s.allowedHosts},
        {"metadata", s.metadata},
        // A local extension: the create claimed a warm copy (sandboxes/warmpool.h).
        {"fromPool", s.fromPool},
    };
    // A local extension: the template built from a recipe it came from ("name:version");
    // `template` stays the built-in one under it, which says what the sandbox runs.
    if (const auto it = s.metadata.find("lizard.template"); it != s.metadata.end())
        j["recipeTemplate"] = it->second;
    // Local extensions: the lifecycle policies (onTimeout, idlePauseMinutes, pausedBy,
    // timeoutMs; api/lifecyclerequest.h).
    const nlohmann::json lifecycle = lifecycleJson(s);
    for (const auto& [key, value] : lifecycle.items())
        j[key] = value;
    if (s.limitsEnforced)
        j["cpus"] = s.cpus;
    // The size's memory whenever something bounds it; limits.memory says how.
    if (s.limitsEnforced || s.handle.rlimitsApplied)
        j["memoryMb"] = s.memoryMb;
    if (s.shmMb > 0)
        j["shmMb"] = s.shmMb;
    // What really bounds the sandbox (DECISIONS.md, "Limits"): "cgroup" (cpus, memoryMb and
    // pids of the whole sandbox), "rlimit" (pids of the whole sandbox, memory per process; no
    // cpu limit) or "none" (sandboxes from before rlimits, without cgroups).
    nlohmann::json limits = {{"enforcedBy", s.limitsEnforced          ? "cgroup"
                                            : s.handle.rlimitsApplied ? "rlimit"
                                                                      : "none"}};
    if (s.limitsEnforced || s.handle.rlimitsApplied)
        limits["pids"] = pidsForSize(s.size);
    if (s.handle.rlimitsApplied)
        limits["processMemoryMb"] = s.memoryMb;
    // "cgroup": memoryMb for the sandbox as a whole (tmpfs pages included); "process": for
    // each process's data (RLIMIT_DATA), the sandbox's total is not bounded, /dev/shm by its
    // size (shmMb).
    if (s.limitsEnforced)
        limits["memory"] = "cgroup";
    else if (s.handle.rlimitsApplied)
        limits["memory"] = "process";
    // The writable layer: an ext4 image of its size (ENOSPC), or as an ordinary user the quota
    // file system (ENOSPC) where /dev/fuse is usable, else the disk watch (EFBIG once over;
    // diskOver while it is: files may shrink, not grow).
    if (disk.gb > 0) {
        limits["disk"] = disk.enforcedBy;
        // Inodes as ext4 gives them to an image of the size; bounded the same way as bytes.
        limits["inodes"] = disk.inodes;
        if (disk.enforcedBy == "watch")
            limits["diskOver"] = disk.over;
    }
    j["limits"] = limits;
    if (disk.gb > 0)
        j["diskGb"] = disk.gb;
    return j;
}

nlohmann::json fileEntryJson(const nlohmann::json& e)
{
    nlohmann::json out = e;
    if (const auto it = e.find("mode"); it != e.end() && it->is_string()) {
        const std::string m = it->get<std::string>();
        int value = 0;
        bool ok = !m.empty();
        for (char c : m) {
            if (c < '0' || c > '7') {
                ok = false;
                break;
            }
            value = value * 8 + (c - '0');
        }
        if (ok)
            out["mode"] = value;
        else
            out.erase("mode");
    }
    if (const auto it = e.find("modTime"); it != e.end())
        out["modifiedAt"] = *it;
    return out;
}

nlohmann::json processJson(const nlohmann::json& p)
{
    nlohmann::json out = p;
    if (!out.contains("tag"))
        out["tag"] = nullptr;
    return out;
}

nlohmann::json snapshotJson(const store::SnapshotRecord& s, const sandboxes::PoolState& pool)
{
    const bool ready = s.status == "ready";
    // A ready snapshot is "warming" until its pool holds its size, "paused" once its copies
    // were released (the SDK's waitForSnapshot waits for the one, throws on the other).
    std::string status = s.status;
    if (ready && s.poolPaused)
        status = "paused";
    else if (ready && pool.ready < pool.target)
        status = "warming";
    nlohmann::json j = {
        {"id", s.id},
        {"name", s.name},
        {"projectId", s.projectId},
        {"workspaceId", store::kWorkspaceId},
        {"region", "local"},
        {"sourceSandboxId", s.sourceSandboxId},
        {"status", status},
        {"poolSize", pool.target},
        // Without a pool a restore copies the files from disk: readyCount 1 says that a ready
        // snapshot can be restored now (waitForSnapshot waits for at least 1). warmCount is
        // always the number of warm copies.
        {"readyCount", pool.target > 0 ? pool.ready
                       : ready         ? 1
                                       : 0},
        {"warmCount", pool.ready},
        {"poolError", pool.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(pool.error)},
        {"error", s.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.error)},
        {"cpus", s.cpus},
        {"memoryMb", s.memoryMb},
        {"createdAt", s.createdAtMs},
        {"scope", "project"},
        {"sourceVolume", false},
        {"createdBy", nullptr},
        {"template", s.templateName},
        {"size", s.size},
        {"sizeBytes", s.sizeBytes}};
    if (s.diskGb > 0)
        j["diskGb"] = s.diskGb;
    if (s.shmMb > 0)
        j["shmMb"] = s.shmMb;
    return j;
}

} // namespace lizard::api
