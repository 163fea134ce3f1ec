#include "benchcalls.h"

#include "stats.h"

#include <cstdio>

namespace lizard::bench {

using nlohmann::json;

Leftovers::~Leftovers()
{
    for (const auto& id : m_sandboxes)
        m_api.request("DELETE", "/api/sandboxes/" + id);
    for (const auto& id : m_snapshots)
        m_api.request("DELETE", "/api/sandbox-snapshots/" + id);
}

std::string start(ApiClient& api, const json& body, Leftovers& left, std::string& error)
{
    const HttpResponse r = api.request("POST", "/api/sandboxes", body.dump());
    const json info = json::parse(r.body, nullptr, false);
    if (!r.ok() || !info.is_object() || info.value("status", "") != "running") {
        error = "POST /api/sandboxes: " + r.describe();
        return {};
    }
    left.sandbox(info["sandboxId"].get<std::string>());
    return info["sandboxId"].get<std::string>();
}

bool run(ApiClient& api, const std::string& id, const std::string& cmd, std::string& error)
{
    const HttpResponse r =
        api.request("POST", "/api/sandboxes/" + id + "/exec", json{{"cmd", cmd}}.dump());
    const json out = json::parse(r.body, nullptr, false);
    if (!r.ok() || !out.is_object() || out.value("exitCode", -1) != 0) {
        error = "exec " + cmd + ": " + r.describe();
        return false;
    }
    return true;
}

Figure figure(const std::string& name, int runs, double target)
{
    return Figure{.name = name,
                  .statistic = "median of " + std::to_string(runs),
                  .unit = "ms",
                  .target = target};
}

void finish(Figure& f, const std::vector<double>& samples)
{
    f.value = median(samples);
    char note[96];
    std::snprintf(note, sizeof note, "min %.1f ms, max %.1f ms", quantile(samples, 0),
                  quantile(samples, 1));
    f.note = note;
}

} // namespace lizard::bench
