#pragma once
// Templates built from recipes in lizard.db: versions, builds and cached layers (SQLite only;
// the builder keeps what is live). Their snapshots are ordinary snapshot rows.

#include "common/result.h"
#include "store/templaterecords.h"

#include <string>
#include <vector>

namespace lizard::store {

class Database;

class TemplateStore
{
public:
    explicit TemplateStore(Database& db) : m_db(db) {}

    // Every version of every template (name, then version), or of one.
    Result<std::vector<TemplateVersionRecord>> versions(const std::string& name = {}) const;
    Status insertVersion(const TemplateVersionRecord& version);
    // The template's versions and builds go; its layers stay for the cache to evict.
    Status removeTemplate(const std::string& name);

    // Newest first; of one template, or of all when name is empty; at most `limit`.
    Result<std::vector<TemplateBuildRecord>> builds(const std::string& name, int limit) const;
    Status insertBuild(const TemplateBuildRecord& build);
    Status updateBuild(const TemplateBuildRecord& build);
    Status removeBuild(const std::string& id);
    // Builds a stopped or killed server left "building": now "interrupted". Returns them.
    Result<std::vector<TemplateBuildRecord>> interruptUnfinished(int64_t nowMs);

    Result<std::vector<TemplateLayerRecord>> layers() const;
    Status insertLayer(const TemplateLayerRecord& layer);
    Status touchLayer(const std::string& key, int64_t nowMs);
    Status removeLayer(const std::string& key);

private:
    Database& m_db;
};

} // namespace lizard::store
