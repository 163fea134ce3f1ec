#include "api/warmpools.h"

#include "api/restoreparams.h"
#include "common/log.h"
#include "sandboxes/sandboxmanager.h"
#include "store/store.h"

#include <algorithm>

namespace lizard::api {

using sandboxes::WarmPool;

namespace {

// What a create whose body is `body` would start, as a pool's shape.
Result<sandboxes::CreateSandboxParams> paramsFor(const store::Store& st, const nlohmann::json& body)
{
    nlohmann::json extra;
    auto p = createParams(body, st, extra);
    if (!p)
        return p.error();
    return *p;
}

} // namespace

WarmPools::WarmPools(store::Store& store, sandboxes::SandboxManager& manager, PoolDefaults defaults)
    : m_store(store), m_manager(manager), m_defaults(std::move(defaults))
{
}

int WarmPools::effectiveSize(int requested) const
{
    return std::clamp(requested, 0, m_defaults.maxCopies);
}

int WarmPools::templateSize(const std::string& name) const
{
    const auto stored = m_store.templatePools();
    if (const auto it = stored.find(name); it != stored.end())
        return it->second;
    const auto it = m_defaults.templates.find(name);
    return it == m_defaults.templates.end() ? 0 : it->second;
}

void WarmPools::configureTemplate(const std::string& name)
{
    WarmPool* pools = m_manager.pools();
    if (!pools)
        return;
    auto p = paramsFor(m_store, {{"template", name}});
    if (p && checkShmSize(*p))
        pools->configure(WarmPool::templateKey(name), sandboxes::SandboxManager::warmShape(*p),
                         effectiveSize(templateSize(name)), false);
    else
        log::warn("warm pool of template " + name + ": " +
                  (p ? "bad /dev/shm size" : p.error().message));
}

void WarmPools::configureAll()
{
    for (const char* name : kTemplates)
        configureTemplate(name);
    for (const auto& s : m_store.snapshots())
        configureSnapshot(*s);
}

Status WarmPools::setTemplatePool(const std::string& name, int size)
{
    if (std::find_if(std::begin(kTemplates), std::end(kTemplates),
                     [&](const char* t) { return name == t; }) == std::end(kTemplates))
        return Error{ErrorKind::NotFound, "NOT_FOUND",
                     "template " + name + " not found (base, interpreter, desktop)"};
    if (Status s = m_store.setTemplatePool(name, size); !s)
        return s;
    configureTemplate(name);
    return okStatus();
}

void WarmPools::configureSnapshot(const store::SnapshotRecord& s)
{
    WarmPool* pools = m_manager.pools();
    if (!pools || s.status != "ready")
        return;
    auto p = paramsFor(m_store, {{"projectId", s.projectId}});
    if (!p)
        return log::warn("warm pool of snapshot " + s.id + ": " + p.error().message);
    const nlohmann::json restoreBody = {{"snapshotId", s.id}};
    if (Status applied = applySnapshotRecord(s, restoreBody, *p); !applied)
        return log::warn("warm pool of snapshot " + s.id + ": " + applied.error().message);
    if (Status shm = checkShmSize(*p); !shm)
        return log::warn("warm pool of snapshot " + s.id + ": " + shm.error().message);
    pools->configure(WarmPool::snapshotKey(s.id), sandboxes::SandboxManager::warmShape(*p),
                     effectiveSize(s.poolSize), s.poolPaused);
}

void WarmPools::removeSnapshot(const std::string& id)
{
    if (WarmPool* pools = m_manager.pools())
        pools->remove(WarmPool::snapshotKey(id));
}

sandboxes::PoolState WarmPools::snapshotPool(const store::SnapshotRecord& s) const
{
    WarmPool* pools = m_manager.pools();
    if (!pools)
        return {};
    return pools->state(WarmPool::snapshotKey(s.id));
}

nlohmann::json WarmPools::templateJson(const std::string& name) const
{
    sandboxes::PoolState state;
    if (WarmPool* pools = m_manager.pools())
        state = pools->state(WarmPool::templateKey(name));
    if (m_defaults.maxCopies == 0 && templateSize(name) > 0)
        state.error = "warm pools are off in this lizard-local (--pool-max 0)";
    return {
        {"name", name},
        {"builtIn", true},
        {"poolSize", state.target},
        {"requestedPoolSize", templateSize(name)},
        {"readyCount", state.ready},
        {"poolError", state.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(state.error)}};
}

} // namespace lizard::api
