#pragma once
// Restore: POST /api/sandboxes with snapshotId starts a sandbox with the snapshot's files, in
// the snapshot's own project (another projectId: 403 SNAPSHOT_SCOPE, as the SDK documents),
// with its template and size (the body's are ignored) and its envs (the body's win).

#include "sandboxes/sandboxmanager.h"

#include <nlohmann/json.hpp>

namespace lizard::api {

// Without snapshotId: "" and `p` unchanged. With one: the snapshot is held (release it with
// SnapshotService::release once the create finished) and its id returned.
Result<std::string> applySnapshot(const nlohmann::json& body, sandboxes::CreateSandboxParams& p,
                                  sandboxes::SnapshotService& snapshots);

} // namespace lizard::api
