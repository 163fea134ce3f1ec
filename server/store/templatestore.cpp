#include "store/templatestore.h"

#include "store/database.h"
#include "store/jsoncolumns.h"
#include "store/statement.h"

#include <sqlite3.h>

namespace lizard::store {

namespace {

constexpr const char* kVersionColumns = "name, version, snapshot_id, base, recipe, envs, workdir, "
                                        "build_id, size_bytes, created_at";
constexpr const char* kBuildColumns = "id, name, status, recipe, steps, cached_steps, "
                                      "failed_step, exit_code, error, version, started_at, "
                                      "ended_at";
constexpr const char* kLayerColumns =
    "key, snapshot_id, template, step, size_bytes, created_at, last_used_at";

TemplateVersionRecord versionFrom(const Statement& q)
{
    TemplateVersionRecord r;
    r.name = q.text(0);
    r.version = int(q.integer(1));
    r.snapshotId = q.text(2);
    r.base = q.text(3);
    r.recipe = q.text(4);
    r.envs = mapFromJson(q.text(5));
    r.workdir = q.text(6);
    r.buildId = q.text(7);
    r.sizeBytes = q.integer(8);
    r.createdAtMs = q.integer(9);
    return r;
}

TemplateBuildRecord buildFrom(const Statement& q)
{
    TemplateBuildRecord r;
    r.id = q.text(0);
    r.name = q.text(1);
    r.status = q.text(2);
    r.recipe = q.text(3);
    r.steps = int(q.integer(4));
    r.cachedSteps = int(q.integer(5));
    r.failedStep = int(q.integer(6));
    if (!q.isNull(7))
        r.exitCode = int(q.integer(7));
    r.error = q.text(8);
    r.version = int(q.integer(9));
    r.startedAtMs = q.integer(10);
    r.endedAtMs = q.integer(11);
    return r;
}

TemplateLayerRecord layerFrom(const Statement& q)
{
    TemplateLayerRecord r;
    r.key = q.text(0);
    r.snapshotId = q.text(1);
    r.templateName = q.text(2);
    r.step = q.text(3);
    r.sizeBytes = q.integer(4);
    r.createdAtMs = q.integer(5);
    r.lastUsedAtMs = q.integer(6);
    return r;
}

// The build's fields after the id, in kBuildColumns' order, from `first` on.
void bindBuild(Statement& q, int first, const TemplateBuildRecord& r)
{
    q.bind(first, r.name).bind(first + 1, r.status).bind(first + 2, r.recipe);
    q.bind(first + 3, int64_t(r.steps)).bind(first + 4, int64_t(r.cachedSteps));
    q.bind(first + 5, int64_t(r.failedStep));
    if (r.exitCode)
        q.bind(first + 6, int64_t(*r.exitCode));
    else
        q.bindNull(first + 6);
    q.bind(first + 7, r.error).bind(first + 8, int64_t(r.version));
    q.bind(first + 9, r.startedAtMs).bind(first + 10, r.endedAtMs);
}

} // namespace

Result<std::vector<TemplateVersionRecord>> TemplateStore::versions(const std::string& name) const
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(),
                std::string("SELECT ") + kVersionColumns + " FROM template_versions" +
                    (name.empty() ? "" : " WHERE name = ?") + " ORDER BY name, version");
    if (!name.empty())
        q.bind(1, name);
    std::vector<TemplateVersionRecord> out;
    while (q.step())
        out.push_back(versionFrom(q));
    if (q.failed())
        return m_db.failure("cannot read the templates");
    return out;
}

Status TemplateStore::insertVersion(const TemplateVersionRecord& r)
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(), std::string("INSERT INTO template_versions(") + kVersionColumns +
                                   ") VALUES (?,?,?,?,?,?,?,?,?,?)");
    q.bind(1, r.name).bind(2, int64_t(r.version)).bind(3, r.snapshotId).bind(4, r.base);
    q.bind(5, r.recipe).bind(6, mapToJson(r.envs)).bind(7, r.workdir).bind(8, r.buildId);
    q.bind(9, r.sizeBytes).bind(10, r.createdAtMs);
    if (!q.run())
        return m_db.failure("cannot record the template's version");
    return okStatus();
}

Status TemplateStore::removeTemplate(const std::string& name)
{
    std::lock_guard lock(m_db.mutex());
    Statement versions(m_db.handle(), "DELETE FROM template_versions WHERE name = ?");
    versions.bind(1, name);
    Statement builds(m_db.handle(), "DELETE FROM template_builds WHERE name = ?");
    builds.bind(1, name);
    if (!versions.run() || !builds.run())
        return m_db.failure("cannot delete the template");
    return okStatus();
}

Result<std::vector<TemplateBuildRecord>> TemplateStore::builds(const std::string& name,
                                                               int limit) const
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(), std::string("SELECT ") + kBuildColumns + " FROM template_builds" +
                                   (name.empty() ? "" : " WHERE name = ?") +
                                   " ORDER BY started_at DESC, rowid DESC LIMIT ?");
    int i = 1;
    if (!name.empty())
        q.bind(i++, name);
    q.bind(i, int64_t(limit));
    std::vector<TemplateBuildRecord> out;
    while (q.step())
        out.push_back(buildFrom(q));
    if (q.failed())
        return m_db.failure("cannot read the template builds");
    return out;
}

Status TemplateStore::insertBuild(const TemplateBuildRecord& r)
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(), std::string("INSERT INTO template_builds(") + kBuildColumns +
                                   ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
    q.bind(1, r.id);
    bindBuild(q, 2, r);
    if (!q.run())
        return m_db.failure("cannot record the build");
    return okStatus();
}

Status TemplateStore::updateBuild(const TemplateBuildRecord& r)
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(),
                "UPDATE template_builds SET name = ?, status = ?, recipe = ?, steps = ?, "
                "cached_steps = ?, failed_step = ?, exit_code = ?, error = ?, version = ?, "
                "started_at = ?, ended_at = ? WHERE id = ?");
    bindBuild(q, 1, r);
    q.bind(12, r.id);
    if (!q.run())
        return m_db.failure("cannot update the build");
    return okStatus();
}

Status TemplateStore::removeBuild(const std::string& id)
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(), "DELETE FROM template_builds WHERE id = ?");
    q.bind(1, id);
    if (!q.run())
        return m_db.failure("cannot delete the build");
    return okStatus();
}

Result<std::vector<TemplateBuildRecord>> TemplateStore::interruptUnfinished(int64_t nowMs)
{
    std::vector<TemplateBuildRecord> out;
    {
        std::lock_guard lock(m_db.mutex());
        Statement q(m_db.handle(), std::string("SELECT ") + kBuildColumns +
                                       " FROM template_builds WHERE status = 'building'");
        while (q.step())
            out.push_back(buildFrom(q));
        if (q.failed())
            return m_db.failure("cannot read the template builds");
    }
    for (TemplateBuildRecord& b : out) {
        b.status = "interrupted";
        b.error = "lizard-local stopped during the build";
        b.endedAtMs = std::max(nowMs, b.startedAtMs);
        if (Status s = updateBuild(b); !s)
            return s.error();
    }
    return out;
}

Result<std::vector<TemplateLayerRecord>> TemplateStore::layers() const
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(), std::string("SELECT ") + kLayerColumns +
                                   " FROM template_layers ORDER BY last_used_at");
    std::vector<TemplateLayerRecord> out;
    while (q.step())
        out.push_back(layerFrom(q));
    if (q.failed())
        return m_db.failure("cannot read the template layers");
    return out;
}

Status TemplateStore::insertLayer(const TemplateLayerRecord& r)
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(), std::string("INSERT OR REPLACE INTO template_layers(") +
                                   kLayerColumns + ") VALUES (?,?,?,?,?,?,?)");
    q.bind(1, r.key).bind(2, r.snapshotId).bind(3, r.templateName).bind(4, r.step);
    q.bind(5, r.sizeBytes).bind(6, r.createdAtMs).bind(7, r.lastUsedAtMs);
    if (!q.run())
        return m_db.failure("cannot record the layer");
    return okStatus();
}

Status TemplateStore::touchLayer(const std::string& key, int64_t nowMs)
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(), "UPDATE template_layers SET last_used_at = ? WHERE key = ?");
    q.bind(1, nowMs).bind(2, key);
    if (!q.run())
        return m_db.failure("cannot update the layer");
    return okStatus();
}

Status TemplateStore::removeLayer(const std::string& key)
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(), "DELETE FROM template_layers WHERE key = ?");
    q.bind(1, key);
    if (!q.run())
        return m_db.failure("cannot delete the layer");
    return okStatus();
}

} // namespace lizard::store
