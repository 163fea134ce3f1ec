#pragma once
// The warm pools as the API shows them (sandboxes/warmpool.h): one per template, whose size is a
// setting (PATCH /api/templates/{name}; lizard-local's default until then), and one per snapshot
// (poolSize of the SDK's snapshot calls). A pool's shape is what a create naming only the
// template, or a restore naming only the snapshot, asks for: createParams decides both, so a
// create claims a copy exactly when a cold start would have started the same sandbox.

#include "common/result.h"
#include "sandboxes/warmpool.h"
#include "store/records.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace lizard::store {
class Store;
}
namespace lizard::sandboxes {
class SandboxManager;
}

namespace lizard::api {

struct PoolDefaults
{
    std::map<std::string, int> templates; // base, interpreter, desktop
    int maxCopies = 0;                    // lizard-local --pool-max; 0: no pools at all
};

class WarmPools
{
public:
    static constexpr const char* kTemplates[] = {"base", "interpreter", "desktop"};

    WarmPools(store::Store& store, sandboxes::SandboxManager& manager, PoolDefaults defaults);

    // Startup, once the manager's pools run: every template's pool and every ready snapshot's.
    void configureAll();
    // PATCH /api/templates/{name}: stored, then applied. NOT_FOUND for an unknown template.
    Status setTemplatePool(const std::string& name, int size);
    // A snapshot's pool after its take, PATCH, pause or resume (the record says which).
    void configureSnapshot(const store::SnapshotRecord& s);
    // Before a snapshot's files go: its copies end, a copy starting from them is waited for.
    // Blocking (worker threads).
    void removeSnapshot(const std::string& id);

    // {name, poolSize, readyCount, poolError, available, unavailableReason} of a template.
    nlohmann::json templateJson(const std::string& name) const;
    // The pool's fields of a snapshot's view (api/views.h snapshotJson).
    sandboxes::PoolState snapshotPool(const store::SnapshotRecord& s) const;
    // What a requested size becomes: at most --pool-max (0 when pools are off).
    int effectiveSize(int requested) const;

private:
    int templateSize(const std::string& name) const;
    void configureTemplate(const std::string& name);

    store::Store& m_store;
    sandboxes::SandboxManager& m_manager;
    const PoolDefaults m_defaults;
};

} // namespace lizard::api
