#pragma once
// The JSON shapes the API answers (as the official SDK reads them).

#include "runtime/runtime.h"
#include "sandboxes/warmpool.h"
#include "store/records.h"

#include <nlohmann/json.hpp>

namespace lizard::api {

nlohmann::json projectJson(const store::ProjectRecord& project);
// cpus appears only when cgroups enforce it, memoryMb whenever cgroups or rlimits bound memory
// (limits.memory says which), shmMb for sandboxes with a bounded /dev/shm, diskGb only when the
// writable layer is really bounded (SandboxManager::disk: gb > 0), with limits.disk saying
// how ("image" or "watch") and, watched, limits.diskOver.
nlohmann::json sandboxJson(const store::SandboxRecord& sandbox, const runtime::DiskState& disk);
// Agent file entry → API entry: mode as a number (0644 → 420), modifiedAt = modTime.
nlohmann::json fileEntryJson(const nlohmann::json& agentEntry);
nlohmann::json processJson(const nlohmann::json& agentProcess);
// The SDK's SandboxSnapshot (plus sizeBytes, template, warmCount and poolError, which
// lizard-local adds), with the state of its warm pool.
nlohmann::json snapshotJson(const store::SnapshotRecord& snapshot,
                            const sandboxes::PoolState& pool);

} // namespace lizard::api
