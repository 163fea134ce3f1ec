#include "api/templateviews.h"

#include "common/timeutil.h"

namespace lizard::api {

nlohmann::json buildJson(const store::TemplateBuildRecord& b)
{
    nlohmann::json j = {
        {"id", b.id},
        {"name", b.name},
        {"status", b.status},
        {"steps", b.steps},
        {"cachedSteps", b.cachedSteps},
        {"failedStep", b.failedStep < 0 ? nlohmann::json() : nlohmann::json(b.failedStep)},
        {"exitCode", b.exitCode ? nlohmann::json(*b.exitCode) : nlohmann::json()},
        {"error", b.error},
        {"version", b.version > 0 ? nlohmann::json(b.version) : nlohmann::json()},
        {"startedAt", isoUtc(b.startedAtMs)},
        {"endedAt", b.endedAtMs > 0 ? nlohmann::json(isoUtc(b.endedAtMs)) : nlohmann::json()},
        {"logUrl", "/api/templates/" + b.name + "/builds/" + b.id + "/log"}};
    j["durationMs"] = (b.endedAtMs > 0 ? b.endedAtMs : nowMs()) - b.startedAtMs;
    return j;
}

nlohmann::json recipeTemplateJson(const sandboxes::TemplateBuilder& builder,
                                  const std::string& name, const sandboxes::PoolState& pool,
                                  bool detail)
{
    nlohmann::json versions = nlohmann::json::array();
    std::optional<store::TemplateVersionRecord> latest;
    if (auto all = builder.versions(name)) {
        for (const auto& v : *all) {
            versions.push_back({{"version", v.version},
                                {"tag", name + ":" + std::to_string(v.version)},
                                {"snapshotId", v.snapshotId.empty() ? nlohmann::json()
                                                                    : nlohmann::json(v.snapshotId)},
                                {"sizeBytes", v.sizeBytes},
                                {"buildId", v.buildId},
                                {"envs", v.envs},
                                {"createdAt", isoUtc(v.createdAtMs)}});
            latest = v;
        }
    }
    const auto builds = builder.builds(name, detail ? 1000 : 1);
    nlohmann::json j = {
        {"name", name},
        {"kind", "recipe"},
        {"base", latest ? nlohmann::json(latest->base) : nlohmann::json()},
        {"latest", latest ? nlohmann::json(latest->version) : nlohmann::json()},
        {"versions", versions},
        {"available", latest.has_value()},
        {"poolSize", pool.target},
        {"readyCount", pool.ready},
        {"poolError", pool.error.empty() ? nlohmann::json() : nlohmann::json(pool.error)}};
    if (!latest)
        j["unavailableReason"] = "no build of it has succeeded yet";
    // The recipe: the latest build's (it may be newer than the latest version's).
    j["recipe"] = !builds.empty() ? builds.front().recipe : latest ? latest->recipe : "";
    j["lastBuild"] = builds.empty() ? nlohmann::json() : buildJson(builds.front());
    j["building"] = !builds.empty() && builds.front().status == "building";
    if (!detail)
        return j;
    nlohmann::json all = nlohmann::json::array();
    for (const auto& b : builds)
        all.push_back(buildJson(b));
    j["builds"] = all;
    nlohmann::json layers = nlohmann::json::array();
    for (const auto& l : builder.layers(name))
        layers.push_back({{"key", l.key},
                          {"snapshotId", l.snapshotId},
                          {"step", l.step},
                          {"sizeBytes", l.sizeBytes},
                          {"createdAt", isoUtc(l.createdAtMs)},
                          {"lastUsedAt", isoUtc(l.lastUsedAtMs)}});
    j["layers"] = layers;
    return j;
}

} // namespace lizard::api
