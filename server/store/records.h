#pragma once
// Rows of lizard.db as the server uses them.

#include "runtime/runtime.h"

#include <cstdint>
#include <map>
#include <string>

namespace lizard::store {

inline constexpr const char* kWorkspaceId = "ws_local";

struct ApiKeyRecord
{
    std::string id;
    std::string name;
    std::string hash;   // sha256 hex of the full key
    std::string prefix; // "liz_ab12" for display
    int64_t createdAtMs = 0;
    bool readOnly = false;  // scope: GET and HEAD only (api/DECISIONS.md, "API keys")
    bool bootstrap = false; // the key file's key: full access, not revocable through the API
    int64_t lastUsedMs = 0; // 0: never used
};

struct ProjectRecord
{
    std::string id;
    std::string name;
    std::string slug;
    std::string workspaceId = kWorkspaceId;
    int64_t createdAtMs = 0;
};

struct SandboxRecord
{
    std::string id;
    std::string projectId;
    std::string templateName;
    std::string size;
    double cpus = 0;
    int memoryMb = 0;
    int shmMb = 0;         // size of /dev/shm (MiB); 0: a sandbox from before it had one
    bool fromPool = false; // a warm copy its create claimed (sandboxes/warmpool.h)
    bool limitsEnforced = false;
    std::string status = "running"; // running | paused | stopped
    int64_t startedAtMs = 0;
    int64_t endAtMs = 0; // 0: no deadline
    std::map<std::string, std::string> metadata;
    std::map<std::string, std::string> envs;
    bool internetAccess = false;           // what the runtime really gave
    std::vector<std::string> allowedHosts; // reachable without internet (sandboxes/allowedhosts.h)
    runtime::SandboxHandle handle;
    int64_t stoppedAtMs = 0;
    std::string stopReason; // killed | expired | lost | ...
    std::string pauseError; // why the last pause or resume failed; empty when it did not
    // Lifecycle policies (a local extension; sandboxes/lifecyclepolicy.h).
    std::string onTimeout = "kill"; // at the deadline: kill | pause
    int idlePauseMinutes = 0;       // paused after this long without use; 0: never
    int64_t timeoutMs = 0;          // the lifetime last given (create, POST /timeout); 0: none
    std::string pausedBy;           // while paused: user | idle | timeout (who paused it)

    // Alive: running or paused (it has processes and memory, counts against --max-running,
    // is listed, can be killed and expires). paused() says which.
    bool running() const { return status == "running" || status == "paused"; }
    bool paused() const { return status == "paused"; }
    // Paused by one of its policies (idle, deadline): the next call that needs it resumes it.
    bool pausedByPolicy() const
    {
        return paused() && (pausedBy == "idle" || pausedBy == "timeout");
    }
};

// A copy of a sandbox's writable file system under <dataDir>/files/<id>, restorable into new
// sandboxes of the same project.
struct SnapshotRecord
{
    std::string id; // "snap_..."
    std::string name;
    std::string projectId;
    std::string sourceSandboxId;
    std::string templateName; // what a restore starts (the snapshot is a layer over it)
    std::string size;
    double cpus = 0;
    int memoryMb = 0;
    std::map<std::string, std::string> envs; // the source's create-time envs
    bool internetAccess = true;
    std::string status = "building"; // building | ready | failed
    std::string error;
    int64_t sizeBytes = 0;
    int diskGb = 0; // the source's bounded disk size; 0 when its disk was not bounded
    int shmMb = 0;  // the source's /dev/shm size; 0: the default
    int64_t createdAtMs = 0;
    int poolSize = 0;        // warm copies to keep ready (sandboxes/warmpool.h)
    bool poolPaused = false; // the pool's idle copies were released and it does not refill
};

// A persistent volume: a directory (or an ext4 image) under <dataDir>/volumes/<id>/ that a
// sandbox mounts at /workspace. attachedTo is the sandbox that holds it (or is starting with it).
struct VolumeRecord
{
    std::string id; // "vol_..."
    std::string projectId;
    std::string name; // slug, unique per project
    int sizeGb = 5;
    bool sizeEnforced = false; // an ext4 image really caps it
    std::string attachedTo;    // as stored; Store::volumeHolder says whether it still holds it
    int64_t createdAtMs = 0;
};

// A sandbox port exposed through the port proxy (server/proxy). `token` is the sandbox's
// access token, the same for all its ports.
struct ExposureRecord
{
    std::string sandboxId;
    int port = 0;
    std::string address; // "127.x.y.z", the exposure's own loopback address
    std::string token;
    int64_t createdAtMs = 0;
};

} // namespace lizard::store
