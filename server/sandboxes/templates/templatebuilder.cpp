#include "sandboxes/templates/templatebuilder.h"

#include "common/crypto.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "sandboxes/sandboxmanager.h"
#include "sandboxes/snapshotservice.h"
#include "sandboxes/templates/templatebuild.h"
#include "store/store.h"

#include <boost/asio/post.hpp>
#include <filesystem>
#include <regex>
#include <sys/stat.h>

namespace lizard::sandboxes {

namespace {

Error invalid(const std::string& message)
{
    return Error{ErrorKind::InvalidArgument, "INVALID_ARGUMENT", message};
}

// What the built-in templates are made of: the host's packages. A change of them (an upgrade)
// changes every key, so no layer built on the old ones is reused.
std::string hostPackagesStamp()
{
    struct stat st
    {
    };
    if (::stat("/var/lib/dpkg/status", &st) != 0)
        return "no-dpkg";
    return std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + "/" +
           std::to_string(st.st_size);
}

} // namespace

bool TemplateBuilder::builtIn(const std::string& name)
{
    return name == "base" || name == "interpreter" || name == "desktop" ||
           name == "code-interpreter-v1";
}

TemplateBuilder::TemplateBuilder(store::Store& store, SandboxManager& sandboxes,
                                 http::net::io_context& ioc, std::string dataDir,
                                 TemplateLimits limits)
    : m_store(store), m_sandboxes(sandboxes), m_ioc(ioc),
      m_logDir(std::move(dataDir) + "/template-builds"), m_limits(std::move(limits))
{
    std::error_code ec;
    std::filesystem::create_directories(m_logDir, ec);
}

TemplateBuilder::~TemplateBuilder() = default;

void TemplateBuilder::setPoolHooks(PoolConfigure configure, PoolRemove remove)
{
    m_poolConfigure = std::move(configure);
    m_poolRemove = std::move(remove);
}

CreateSandboxParams TemplateBuilder::buildSandboxParams() const
{
    CreateSandboxParams p;
    p.size = m_limits.buildSize;
    p.limits = m_limits.buildLimits;
    p.internetAccess = true;
    return p;
}

void TemplateBuilder::start()
{
    auto interrupted = m_store.templates().interruptUnfinished(nowMs());
    if (!interrupted)
        log::warn("template builds: " + interrupted.error().message);
    // The sandboxes of builds that did not end: the manager adopted them; they end here.
    for (const store::SandboxPtr& sb : m_store.runningSandboxes()) {
        const auto it = sb->metadata.find("lizard.templateBuild");
        if (it == sb->metadata.end())
            continue;
        log::info("template build " + it->second + " was interrupted; its sandbox " + sb->id +
                  " ends");
        m_sandboxes.kill(sb->id, "its template build was interrupted", [](Status) {});
    }
    if (auto layers = m_store.templates().layers()) {
        for (const auto& l : *layers) {
            const auto snap = m_store.snapshot(l.snapshotId);
            if (!snap || snap->status != "ready")
                m_store.templates().removeLayer(l.key);
        }
    }
}

void TemplateBuilder::shutdown()
{
    std::vector<std::shared_ptr<TemplateBuild>> running;
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        for (auto& [id, b] : m_builds)
            running.push_back(b);
    }
    for (auto& b : running)
        b->cancel("lizard-local stopped during the build");
}

std::vector<std::string> TemplateBuilder::stepKeys(const BuildPlan& plan)
{
    std::vector<std::string> keys;
    std::string key = sha256Hex("lizard template base\n" + plan.base + "\n" + hostPackagesStamp() +
                                "\n" + plan.fromSnapshot);
    for (const RecipeStep& s : plan.recipe.steps) {
        std::string text = key + "\n" + stepKindName(s.kind) + "\n";
        for (const auto& item : s.items)
            text.append(item).push_back('\0');
        text += "\nenv\n";
        for (const auto& [k, v] : s.env)
            text.append(k).append("=").append(v).push_back('\0');
        text += "\nworkdir\n" + s.workdir + "\nfiles\n";
        for (const auto& [src, dst] : s.files) {
            const auto it = plan.files.find(src);
            text.append(dst).push_back('\0');
            text.append(sha256Hex(it == plan.files.end() ? std::string() : it->second));
            text.push_back('\0');
        }
        key = sha256Hex(text);
        keys.push_back(key);
    }
    return keys;
}

Result<BuildPlan> TemplateBuilder::plan(BuildRequest& request)
{
    static const std::regex nameRe("[a-z0-9][a-z0-9-]{0,62}");
    if (!std::regex_match(request.name, nameRe))
        return invalid("field \"name\" must be 1 to 63 lowercase letters, digits and dashes, "
                       "starting with a letter or digit");
    if (builtIn(request.name))
        return Error{ErrorKind::Conflict, "TEMPLATE_EXISTS",
                     "\"" + request.name + "\" is a built-in template; choose another name"};
    auto recipe = parseRecipe(request.recipe);
    if (!recipe)
        return recipe.error();
    BuildPlan plan;
    plan.name = request.name;
    plan.recipeText = request.recipe;
    plan.recipe = std::move(*recipe);
    const std::string& from = plan.recipe.from;
    if (builtIn(from)) {
        plan.base = from == "code-interpreter-v1" ? "interpreter" : from;
    } else {
        const auto parent = resolve(from);
        if (!parent)
            return Error{ErrorKind::NotFound, "NOT_FOUND",
                         "line " + std::to_string(plan.recipe.fromLine) + ": template " + from +
                             " not found (base, interpreter, desktop or one built here)"};
        plan.base = parent->base;
        plan.fromSnapshot = parent->snapshotId;
        for (const auto& [k, v] : parent->envs) // the parent's env, under the recipe's own
            for (RecipeStep& s : plan.recipe.steps)
                s.env.try_emplace(k, v);
        for (const auto& [k, v] : parent->envs)
            plan.recipe.env.try_emplace(k, v);
    }
    size_t bytes = 0;
    for (const auto& [src, content] : request.files)
        bytes += src.size() + content.size();
    if (request.files.size() > m_limits.maxFiles || bytes > m_limits.maxFilesBytes)
        return invalid("the files sent with a build may hold at most " +
                       std::to_string(m_limits.maxFiles) + " files and " +
                       std::to_string(m_limits.maxFilesBytes >> 20) + " MiB together");
    for (const RecipeStep& s : plan.recipe.steps) {
        for (const auto& [src, dst] : s.files) {
            if (!request.files.count(src))
                return Error{ErrorKind::InvalidArgument, "INVALID_RECIPE",
                             "line " + std::to_string(s.line) + ": the file " + src +
                                 " was not sent with the build (field \"files\")"};
        }
    }
    plan.files = std::move(request.files);
    const int64_t timeout = request.timeoutMs > 0 ? request.timeoutMs : m_limits.buildTimeoutMs;
    if (timeout < 1000 || timeout > m_limits.maxBuildTimeoutMs)
        return invalid("field \"timeoutMs\" must be from 1000 to " +
                       std::to_string(m_limits.maxBuildTimeoutMs) + " (a build's time limit)");
    plan.timeoutMs = timeout;
    auto project = m_store.projectBySlug("default");
    if (!project) {
        const auto all = m_store.projects();
        if (all.empty())
            return Error{ErrorKind::Internal, "INTERNAL", "there is no project to build in"};
        project = all.front();
    }
    plan.projectId = project->id;
    plan.keys = stepKeys(plan);
    return plan;
}

Result<store::TemplateBuildRecord> TemplateBuilder::build(BuildRequest request)
{
    auto p = plan(request);
    if (!p)
        return p.error();
    store::TemplateBuildRecord r;
    r.id = "tbld_" + randomLowerAlnum(16);
    r.name = p->name;
    r.recipe = p->recipeText;
    r.steps = int(p->recipe.steps.size());
    r.startedAtMs = nowMs();
    std::shared_ptr<TemplateBuild> b;
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping)
            return Error{ErrorKind::Unavailable, "UNAVAILABLE", "lizard-local is stopping"};
        for (const auto& [id, running] : m_builds) {
            if (running->record().name == r.name)
                return Error{ErrorKind::Conflict, "BUILD_RUNNING",
                             "template " + r.name + " is being built (" + id +
                                 "); wait for it to end"};
        }
        if (int(m_builds.size()) >= m_limits.maxBuilds)
            return Error{ErrorKind::LimitReached, "LIMIT_EXCEEDED",
                         std::to_string(m_limits.maxBuilds) +
                             " templates are being built; wait for one to end"};
        if (Status s = m_store.templates().insertBuild(r); !s)
            return s.error();
        auto log = std::make_shared<BuildLog>(logPath(r.id));
        b = std::make_shared<TemplateBuild>(*this, m_sandboxes, m_ioc.get_executor(), std::move(*p),
                                            r, std::move(log));
        m_builds.emplace(r.id, b);
    }
    boost::asio::post(m_sandboxes.workers(), [b] { b->start(); });
    return r;
}

std::optional<store::TemplateVersionRecord> TemplateBuilder::resolve(const std::string& ref) const
{
    const size_t colon = ref.find(':');
    const std::string name = ref.substr(0, colon);
    const std::string tag = colon == std::string::npos ? "latest" : ref.substr(colon + 1);
    if (builtIn(name))
        return std::nullopt;
    auto all = m_store.templates().versions(name);
    if (!all || all->empty())
        return std::nullopt;
    if (tag == "latest")
        return all->back();
    for (const auto& v : *all)
        if (std::to_string(v.version) == tag)
            return v;
    return std::nullopt;
}

std::vector<std::string> TemplateBuilder::names() const
{
    std::set<std::string> out;
    if (auto v = m_store.templates().versions())
        for (const auto& r : *v)
            out.insert(r.name);
    if (auto b = m_store.templates().builds({}, 100000))
        for (const auto& r : *b)
            out.insert(r.name);
    return {out.begin(), out.end()};
}

Result<std::vector<store::TemplateVersionRecord>>
TemplateBuilder::versions(const std::string& name) const
{
    return m_store.templates().versions(name);
}

std::vector<store::TemplateBuildRecord> TemplateBuilder::builds(const std::string& name,
                                                                int limit) const
{
    auto stored = m_store.templates().builds(name, limit);
    if (!stored)
        return {};
    std::lock_guard lock(m_mutex);
    for (auto& r : *stored) {
        const auto it = m_builds.find(r.id);
        if (it != m_builds.end())
            r = it->second->record();
    }
    return std::move(*stored);
}

Result<store::TemplateBuildRecord> TemplateBuilder::buildOf(const std::string& name,
                                                            const std::string& id) const
{
    for (const auto& r : builds(name, m_limits.keptBuilds + 1000))
        if (r.id == id)
            return r;
    return Error{ErrorKind::NotFound, "NOT_FOUND",
                 "build " + id + " of template " + name + " not found"};
}

std::vector<store::TemplateLayerRecord> TemplateBuilder::layers(const std::string& name) const
{
    auto all = m_store.templates().layers();
    if (!all)
        return {};
    if (name.empty())
        return std::move(*all);
    std::vector<store::TemplateLayerRecord> out;
    for (auto& l : *all)
        if (l.templateName == name)
            out.push_back(std::move(l));
    return out;
}

std::shared_ptr<BuildLog> TemplateBuilder::liveLog(const std::string& buildId) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_builds.find(buildId);
    return it == m_builds.end() ? nullptr : it->second->log();
}

std::string TemplateBuilder::logPath(const std::string& buildId) const
{
    return m_logDir + "/" + buildId + ".log";
}

std::optional<std::string> TemplateBuilder::snapshotOwner(const std::string& snapshotId) const
{
    if (auto v = m_store.templates().versions())
        for (const auto& r : *v)
            if (r.snapshotId == snapshotId)
                return r.name;
    for (const auto& l : layers())
        if (l.snapshotId == snapshotId)
            return l.templateName;
    return std::nullopt;
}

void TemplateBuilder::layerBuilt(const std::string& key, const store::SnapshotRecord& snapshot,
                                 const std::string& templateName, const std::string& step)
{
    store::TemplateLayerRecord l;
    l.key = key;
    l.snapshotId = snapshot.id;
    l.templateName = templateName;
    l.step = step;
    l.sizeBytes = snapshot.sizeBytes;
    l.createdAtMs = nowMs();
    l.lastUsedAtMs = l.createdAtMs;
    if (Status s = m_store.templates().insertLayer(l); !s)
        log::warn("template " + templateName + ": layer not recorded: " + s.error().message);
}

int TemplateBuilder::versionBuilt(const BuildPlan& plan, const std::string& buildId,
                                  const std::string& snapshotId, int64_t sizeBytes)
{
    auto all = m_store.templates().versions(plan.name);
    std::optional<store::TemplateVersionRecord> latest;
    if (all && !all->empty())
        latest = all->back();
    if (latest && latest->snapshotId == snapshotId && latest->envs == plan.recipe.env &&
        latest->base == plan.base)
        return 0;
    store::TemplateVersionRecord v;
    v.name = plan.name;
    v.version = latest ? latest->version + 1 : 1;
    v.snapshotId = snapshotId;
    v.base = plan.base;
    v.recipe = plan.recipeText;
    v.envs = plan.recipe.env;
    v.workdir = plan.recipe.workdir;
    v.buildId = buildId;
    v.sizeBytes = sizeBytes;
    v.createdAtMs = nowMs();
    if (Status s = m_store.templates().insertVersion(v); !s) {
        log::warn("template " + plan.name + ": version not recorded: " + s.error().message);
        return 0;
    }
    // The latest version keeps the template's warm pool; the one before gives its copies up.
    int pool = m_limits.defaultPoolSize;
    if (latest && !latest->snapshotId.empty() && latest->snapshotId != snapshotId) {
        if (const auto old = m_store.snapshot(latest->snapshotId)) {
            pool = old->poolSize;
            m_store.setSnapshotPool(old->id, 0, false);
            if (m_poolConfigure)
                m_poolConfigure(*m_store.snapshot(old->id));
        }
    }
    if (!snapshotId.empty() && m_store.setSnapshotPool(snapshotId, pool, false) && m_poolConfigure)
        m_poolConfigure(*m_store.snapshot(snapshotId));
    return v.version;
}

Status TemplateBuilder::setPoolSize(const std::string& name, int size)
{
    const auto latest = resolve(name);
    if (!latest)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "template " + name + " not found"};
    if (latest->snapshotId.empty())
        return Error{ErrorKind::Conflict, "NO_POOL",
                     "template " + name +
                         " has no files of its own (its recipe has no step): "
                         "its sandboxes come from " +
                         latest->base + "'s pool"};
    if (Status s = m_store.setSnapshotPool(latest->snapshotId, size, false); !s)
        return s;
    if (m_poolConfigure)
        m_poolConfigure(*m_store.snapshot(latest->snapshotId));
    return okStatus();
}

void TemplateBuilder::buildEnded(const std::string& buildId, const std::string& name)
{
    {
        std::lock_guard lock(m_mutex);
        m_builds.erase(buildId);
    }
    // The builds (and logs) kept per template.
    if (auto all = m_store.templates().builds(name, 100000)) {
        for (size_t i = size_t(m_limits.keptBuilds); i < all->size(); ++i) {
            m_store.templates().removeBuild((*all)[i].id);
            std::error_code ec;
            std::filesystem::remove(logPath((*all)[i].id), ec);
        }
    }
    boost::asio::post(m_sandboxes.workers(), [this] { evict(); });
}

std::set<std::string> TemplateBuilder::pinnedSnapshots() const
{
    std::set<std::string> pinned;
    if (auto v = m_store.templates().versions())
        for (const auto& r : *v)
            pinned.insert(r.snapshotId);
    return pinned;
}

Status TemplateBuilder::dropSnapshot(const std::string& snapshotId)
{
    if (m_poolRemove)
        m_poolRemove(snapshotId);
    Status s = m_sandboxes.snapshots().remove(snapshotId);
    if (!s && s.error().kind == ErrorKind::NotFound)
        return okStatus();
    return s;
}

void TemplateBuilder::evict()
{
    const std::set<std::string> pinned = pinnedSnapshots();
    auto all = layers(); // least recently used first
    int64_t total = 0;
    for (const auto& l : all)
        if (!pinned.count(l.snapshotId))
            total += l.sizeBytes;
    for (const auto& l : all) {
        if (total <= m_limits.cacheBytes)
            break;
        if (pinned.count(l.snapshotId))
            continue;
        {
            std::lock_guard lock(m_mutex); // a running build may be starting from it
            if (!m_builds.empty())
                return;
        }
        if (Status s = dropSnapshot(l.snapshotId); !s) {
            log::warn("template cache: layer " + l.snapshotId + " stays: " + s.error().message);
            continue;
        }
        m_store.templates().removeLayer(l.key);
        total -= l.sizeBytes;
        log::info("template cache: layer " + l.snapshotId + " (" + l.step + " of " +
                  l.templateName + ") evicted, the least recently used");
    }
}

Status TemplateBuilder::remove(const std::string& name)
{
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [id, b] : m_builds)
            if (b->record().name == name)
                return Error{ErrorKind::Conflict, "BUILD_RUNNING",
                             "template " + name + " is being built (" + id +
                                 "); wait for it to end"};
    }
    auto mine = versions(name);
    if (!mine)
        return mine.error();
    auto builds = m_store.templates().builds(name, 100000);
    if (mine->empty() && (!builds || builds->empty()))
        return Error{ErrorKind::NotFound, "NOT_FOUND", "template " + name + " not found"};
    if (Status s = m_store.templates().removeTemplate(name); !s)
        return s;
    if (builds)
        for (const auto& b : *builds) {
            std::error_code ec;
            std::filesystem::remove(logPath(b.id), ec);
        }
    // Its snapshots go, unless another template's version stands on one.
    const std::set<std::string> pinned = pinnedSnapshots();
    std::set<std::string> dropped;
    for (const auto& v : *mine) {
        if (v.snapshotId.empty() || pinned.count(v.snapshotId) ||
            !dropped.insert(v.snapshotId).second)
            continue;
        if (Status s = dropSnapshot(v.snapshotId); !s)
            log::warn("template " + name + ": snapshot " + v.snapshotId +
                      " stays: " + s.error().message);
    }
    for (const auto& l : layers(name)) {
        if (pinned.count(l.snapshotId))
            continue;
        if (dropped.count(l.snapshotId) || dropSnapshot(l.snapshotId))
            m_store.templates().removeLayer(l.key);
    }
    log::info("template " + name + " deleted");
    return okStatus();
}

} // namespace lizard::sandboxes
