#pragma once
// Restore: POST /api/sandboxes with snapshotId starts a sandbox with the snapshot's files, in
// the snapshot's own project (another projectId: 403 SNAPSHOT_SCOPE, as the SDK documents),
// with its template and size (the body's are ignored) and its envs (the body's win).

#include "sandboxes/sandboxmanager.h"

#include <nlohmann/json.hpp>

namespace lizard::sandboxes {
class TemplateBuilder;
}

namespace lizard::api {

// The parameters of POST /api/sandboxes, everything in the body checked before anything starts
// (sandboxroutes.cpp); a restore's are then applied by applySnapshot.
// `templates`, when given, lets `template` name one built from a recipe (then
// applyTemplateVersion).
Result<sandboxes::CreateSandboxParams>
createParams(const nlohmann::json& body, const store::Store& st, nlohmann::json& extra,
             const sandboxes::TemplateBuilder* templates = nullptr);

// Without snapshotId: "" and `p` unchanged. With one: the snapshot is held (release it with
// SnapshotService::release once the create finished) and its id returned.
Result<std::string> applySnapshot(const nlohmann::json& body, sandboxes::CreateSandboxParams& p,
                                  sandboxes::SnapshotService& snapshots);
// A create from a template built from a recipe (`p.templateName` names it, maybe with a
// version): its version's snapshot restored as applySnapshot does, but in the create's own
// project and with the body's size when it gives one; the template's env under the body's, and
// metadata "lizard.template" = "name:version". The snapshot is held as by applySnapshot.
Result<std::string> applyTemplateVersion(const nlohmann::json& body,
                                         sandboxes::CreateSandboxParams& p,
                                         const sandboxes::TemplateBuilder& templates,
                                         sandboxes::SnapshotService& snapshots);
// What a restore of `s` starts with, given the create's body (its envs win over the snapshot's,
// an explicit shmMb or diskGb over the source's). INTERNAL for a snapshot of an unknown size.
Status applySnapshotRecord(const store::SnapshotRecord& s, const nlohmann::json& body,
                           sandboxes::CreateSandboxParams& p);
// /dev/shm's pages are the sandbox's memory: more than its memory could never be used. The
// default never refuses a create (a host small enough to clamp memory under it gets less).
Status checkShmSize(sandboxes::CreateSandboxParams& p);

} // namespace lizard::api
