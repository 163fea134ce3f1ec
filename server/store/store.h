#pragma once
// lizard.db plus a thread-safe in-memory view of it: reads never touch SQLite, writes go
// to SQLite first and then to the view.

#include "common/result.h"
#include "store/database.h"
#include "store/records.h"
#include "store/schedulestore.h"
#include "store/templatestore.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

namespace lizard::store {

using SandboxPtr = std::shared_ptr<const SandboxRecord>;

// A key as the request path sees it: looked up by hash for every request, so its last use is
// an atomic (written to SQLite at most once a minute, see Store::authenticate).
struct KeyEntry
{
    ApiKeyRecord record;
    std::atomic<int64_t> lastUsedMs{0};
    std::atomic<int64_t> persistedMs{0};
};
using KeyPtr = std::shared_ptr<KeyEntry>;

class Store
{
public:
    static Result<std::unique_ptr<Store>> open(const std::string& dbPath);

    ~Store();

    // API keys (store.cpp). keys() is oldest first, with their last use.
    std::optional<ApiKeyRecord> keyByHash(const std::string& hash) const;
    std::optional<ApiKeyRecord> keyById(const std::string& id) const;
    std::vector<ApiKeyRecord> keys() const;
    Status addKey(const ApiKeyRecord& key);
    Status removeKey(const std::string& id);
    // The key of this hash, or null; marks it used at nowMs (the hot path of every request).
    KeyPtr authenticate(const std::string& hash, int64_t nowMs);

    // Projects (names are unique case-insensitively, also against other slugs and ids)
    std::vector<ProjectRecord> projects() const;
    std::optional<ProjectRecord> project(const std::string& id) const;
    std::optional<ProjectRecord> projectBySlug(const std::string& slug) const;
    Result<ProjectRecord> createProject(const std::string& name, const std::string& slug = {});
    Result<ProjectRecord> renameProject(const std::string& id, const std::string& name);
    // Conflict while it has running sandboxes; its stopped sandboxes are forgotten with it.
    Status deleteProject(const std::string& id);

    // Sandboxes
    SandboxPtr sandbox(const std::string& id) const;
    std::vector<SandboxPtr> runningSandboxes(const std::string& projectId = {}) const;
    int runningCount() const;
    Status insertSandbox(const SandboxRecord& record);
    // Marks a running sandbox stopped; returns the record as it was, or null if not running.
    SandboxPtr markStopped(const std::string& id, const std::string& reason);
    Status setEndAt(const std::string& id, int64_t endAtMs);
    // running <-> paused (store_pause.cpp); clears pauseError. `by` is who paused it (user,
    // idle, timeout), cleared by a resume. NotFound if not alive.
    Status setPaused(const std::string& id, bool paused, const std::string& by = "user");
    Status setPauseError(const std::string& id, const std::string& error);
    // Lifecycle policies (store_lifecycle.cpp). NotFound if not alive.
    Status setLifecyclePolicy(const std::string& id, const std::string& onTimeout,
                              int idlePauseMinutes);
    // The deadline (0: none) and the lifetime a resume after a pause at the deadline restarts.
    Status setDeadline(const std::string& id, int64_t endAtMs, int64_t timeoutMs);

    // Snapshots (store_snapshots.cpp), newest first.
    using SnapshotPtr = std::shared_ptr<const SnapshotRecord>;
    std::vector<SnapshotPtr> snapshots(const std::string& projectId = {}) const;
    SnapshotPtr snapshot(const std::string& id) const;
    Status insertSnapshot(const SnapshotRecord& snapshot);
    // Writes status, error and sizeBytes.
    Status updateSnapshot(const SnapshotRecord& snapshot);
    Status renameSnapshot(const std::string& id, const std::string& name);
    Status removeSnapshot(const std::string& id);
    // Warm pools: a snapshot's, and the templates' sizes changed from lizard-local's default.
    Status setSnapshotPool(const std::string& id, int poolSize, bool paused);
    std::map<std::string, int> templatePools() const;
    Status setTemplatePool(const std::string& templateName, int poolSize);

    // Volumes (store_volumes.cpp). A volume is held by the sandbox in attachedTo while that
    // sandbox is starting (not recorded yet) or not stopped; otherwise it is free.
    std::vector<VolumeRecord> volumes(const std::string& projectId) const;
    std::optional<VolumeRecord> volume(const std::string& projectId,
                                       const std::string& nameOrId) const;
    Status insertVolume(const VolumeRecord& volume); // VOLUME_EXISTS (Conflict) for a taken name
    Status setVolumeSize(const std::string& id, int sizeGb, bool sizeEnforced);
    Status removeVolume(const std::string& id); // VOLUME_ATTACHED (Conflict) while held
    // Reserves the volume for `sandboxId` (VOLUME_ATTACHED (Conflict) while another holds it).
    Status attachVolume(const std::string& volumeId, const std::string& sandboxId);
    void detachVolume(const std::string& volumeId, const std::string& sandboxId);
    std::string volumeHolder(const VolumeRecord& volume) const; // "" when free
    // The volume a running (or starting) sandbox holds, if any (fork refuses those).
    std::optional<VolumeRecord> volumeOf(const std::string& sandboxId) const;

    // Exposed ports (store_exposures.cpp): SQLite only, the proxy keeps the live table.
    std::vector<ExposureRecord> exposures() const;
    Status insertExposure(const ExposureRecord& exposure);
    Status removeExposure(const std::string& sandboxId, int port);

    // Schedules of sandboxes and their runs (schedulestore.h).
    ScheduleStore& schedules() { return m_schedules; }
    // Templates built from recipes: versions, builds, cached layers (templatestore.h).
    TemplateStore& templates() { return m_templates; }

private:
    explicit Store(std::unique_ptr<Database> db)
        : m_db(std::move(db)), m_schedules(*m_db), m_templates(*m_db)
    {
    }
    Status load();
    Status loadKeys();
    Status loadProjects();
    Status loadSandboxes();
    Status loadSnapshots();
    Status updateSandbox(const std::string& id, const std::string& sql,
                         const std::function<void(SandboxRecord&)>& change);
    Status loadVolumes();
    Status writeVolumeAttachment(const std::string& volumeId, const std::string& sandboxId);
    std::optional<std::string> nameConflict(const std::string& name,
                                            const std::string& exceptId) const;
    std::string uniqueSlug(const std::string& name) const;

    std::unique_ptr<Database> m_db;
    ScheduleStore m_schedules;
    TemplateStore m_templates;
    std::mutex m_writeMutex;           // one writer at a time: check + SQL + view update
    mutable std::shared_mutex m_mutex; // guards the maps below (held briefly)
    void persistLastUse(const KeyEntry& key, int64_t ms);
    std::map<std::string, KeyPtr> m_keysByHash;
    std::map<std::string, ProjectRecord> m_projects;
    std::map<std::string, SandboxPtr> m_sandboxes;
    std::map<std::string, SnapshotPtr> m_snapshots;
    std::map<std::string, VolumeRecord> m_volumes; // by id
};

} // namespace lizard::store
