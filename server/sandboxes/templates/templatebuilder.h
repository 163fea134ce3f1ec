#pragma once
// Templates built from recipes (recipe.h): starts builds (templatebuild.h), keeps their layers
// as a cache bounded in bytes (the least recently used layer goes first, never one a version
// stands on), numbers the versions, says what a template's name means to a create, and deletes
// templates. Versions and layers are snapshots of the default project: the snapshot calls see
// them, and a template's sandboxes restore its version's snapshot (with its warm pool).

#include "common/result.h"
#include "http/beast.h"
#include "runtime/runtime.h"
#include "sandboxes/templates/buildlog.h"
#include "store/records.h"
#include "store/templaterecords.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lizard::store {
class Store;
}

namespace lizard::sandboxes {

class SandboxManager;
struct CreateSandboxParams;
class TemplateBuild;
struct BuildPlan;

struct TemplateLimits
{
    int64_t buildTimeoutMs = 30 * 60 * 1000; // a build's default and greatest time
    int64_t maxBuildTimeoutMs = 2 * 60 * 60 * 1000;
    int64_t cacheBytes =
        20LL << 30; // layers kept beyond the ones versions stand on (--template-cache-mb)
    size_t maxFilesBytes = 32 << 20; // the files a build may send, together
    size_t maxFiles = 1000;
    int maxBuilds = 2;                // at once
    int defaultPoolSize = 1;          // warm copies of a template's latest version
    int keptBuilds = 20;              // builds (and logs) kept per template
    std::string buildSize = "medium"; // the build sandbox's size (api/sizes.h gives its limits)
    runtime::Limits buildLimits;
};

struct BuildRequest
{
    std::string name;
    std::string recipe;
    std::map<std::string, std::string> files; // source as the recipe names it → content
    int64_t timeoutMs = 0;                    // 0: the default
};

class TemplateBuilder
{
public:
    TemplateBuilder(store::Store& store, SandboxManager& sandboxes, http::net::io_context& ioc,
                    std::string dataDir, TemplateLimits limits);
    ~TemplateBuilder();

    // Where a template's warm pool is set (api/warmpools.h); before start().
    using PoolConfigure = std::function<void(const store::SnapshotRecord&)>;
    using PoolRemove = std::function<void(const std::string& snapshotId)>; // blocking
    void setPoolHooks(PoolConfigure configure, PoolRemove remove);

    // Startup, after the sandbox manager's: builds a stopped server left are "interrupted" and
    // their sandboxes end; layers whose snapshot is gone are forgotten.
    void start();
    // Shutdown: running builds end "interrupted".
    void shutdown();

    // Validates (INVALID_RECIPE with a line, INVALID_ARGUMENT, NOT_FOUND for an unknown `from`,
    // TEMPLATE_EXISTS for a built-in's name, BUILD_RUNNING, LIMIT_EXCEEDED) and starts a build.
    Result<store::TemplateBuildRecord> build(BuildRequest request);

    // What a create's `template` means: "name", "name:latest" or "name:N". nullopt: no such
    // template of ours (a built-in name, or nothing).
    std::optional<store::TemplateVersionRecord> resolve(const std::string& ref) const;
    std::vector<std::string> names() const; // templates with a version or a build
    Result<std::vector<store::TemplateVersionRecord>> versions(const std::string& name) const;
    // Newest first (the running one with its progress).
    std::vector<store::TemplateBuildRecord> builds(const std::string& name, int limit) const;
    Result<store::TemplateBuildRecord> buildOf(const std::string& name,
                                               const std::string& id) const;
    std::vector<store::TemplateLayerRecord> layers(const std::string& name = {}) const;
    // NOT_FOUND, BUILD_RUNNING (Conflict); the versions' and layers' snapshots go too (a layer
    // another template's build reused stays for the cache). Blocking (worker threads).
    Status remove(const std::string& name);
    // The snapshot is one of a template's versions or layers (the snapshot calls may not
    // delete it: TEMPLATE_SNAPSHOT).
    std::optional<std::string> snapshotOwner(const std::string& snapshotId) const;
    // The latest version's pool (0..16). NOT_FOUND without a version.
    Status setPoolSize(const std::string& name, int size);

    // A running build's log, or null; an ended build's lines are in its file.
    std::shared_ptr<BuildLog> liveLog(const std::string& buildId) const;
    std::string logPath(const std::string& buildId) const;

    static bool builtIn(const std::string& name);

    // For TemplateBuild: a step's layer is ready; the build made its last layer (a new version,
    // its number returned, or 0 when it equals the latest); the build ended.
    void layerBuilt(const std::string& key, const store::SnapshotRecord& snapshot,
                    const std::string& templateName, const std::string& step);
    int versionBuilt(const BuildPlan& plan, const std::string& buildId,
                     const std::string& snapshotId, int64_t sizeBytes);
    void buildEnded(const std::string& buildId, const std::string& name);
    SandboxManager& sandboxes() { return m_sandboxes; }
    CreateSandboxParams buildSandboxParams() const;
    store::Store& store() { return m_store; }

private:
    Result<BuildPlan> plan(BuildRequest& request);
    // Keys of each step, chained from the base's.
    static std::vector<std::string> stepKeys(const BuildPlan& plan);
    // Drops the least recently used layers while the cache is over its bytes; blocking.
    void evict();
    Status dropSnapshot(const std::string& snapshotId);
    std::set<std::string> pinnedSnapshots() const; // the versions' snapshots

    store::Store& m_store;
    SandboxManager& m_sandboxes;
    http::net::io_context& m_ioc;
    const std::string m_logDir;
    const TemplateLimits m_limits;
    PoolConfigure m_poolConfigure;
    PoolRemove m_poolRemove;

    mutable std::mutex m_mutex;                                     // guards m_builds, m_stopping
    std::map<std::string, std::shared_ptr<TemplateBuild>> m_builds; // running, by id
    bool m_stopping = false;
};

} // namespace lizard::sandboxes
