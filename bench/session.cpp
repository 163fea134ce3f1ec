#include "session.h"

#include "stats.h"

#include <nlohmann/json.hpp>
#include <thread>

namespace lizard::bench {

using nlohmann::json;

Session::~Session()
{
    const std::set<std::string> left = m_live;
    for (const std::string& id : left)
        destroy(id);
}

bool Session::ensureProject()
{
    const HttpResponse list = m_api.request("GET", "/api/projects");
    if (!list.ok()) {
        m_error = "GET /api/projects: " + list.describe();
        return false;
    }
    const json projects = json::parse(list.body, nullptr, false);
    if (projects.is_array()) {
        for (const json& p : projects) {
            if (p.value("name", "") == "bench" && p.contains("id")) {
                m_projectId = p["id"].get<std::string>();
                return true;
            }
        }
    }
    const HttpResponse made =
        m_api.request("POST", "/api/projects", json{{"name", "bench"}}.dump());
    const json project = json::parse(made.body, nullptr, false);
    if (!made.ok() || !project.is_object() || !project.contains("id")) {
        m_error = "POST /api/projects: " + made.describe();
        return false;
    }
    m_projectId = project["id"].get<std::string>();
    return true;
}

std::vector<std::string> Session::createRunningMany(int count, long lifetimeMs)
{
    std::vector<std::string> ids;
    if (!ensureProject())
        return ids;
    for (int i = 0; i < count; ++i) {
        std::string id = createRunning(lifetimeMs);
        if (id.empty())
            break;
        ids.push_back(std::move(id));
    }
    return ids;
}

std::string Session::createRunning(long lifetimeMs)
{
    const json body{{"projectId", m_projectId}, {"template", "base"}, {"timeoutMs", lifetimeMs}};
    const HttpResponse created = m_api.request("POST", "/api/sandboxes", body.dump());
    const json info = json::parse(created.body, nullptr, false);
    if (!created.ok() || !info.is_object() || !info.contains("sandboxId")) {
        m_error = "POST /api/sandboxes: " + created.describe();
        return {};
    }
    const std::string id = info["sandboxId"].get<std::string>();
    m_live.insert(id);
    std::string status = info.value("status", "");
    const auto start = Clock::now();
    while (status != "running") {
        if (status == "failed" || status == "stopped" || status == "deleted" ||
            msSince(start) > 60000) {
            m_error = "sandbox " + id + " did not become running (status \"" + status + "\")";
            destroy(id);
            return {};
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        const HttpResponse got = m_api.request("GET", "/api/sandboxes/" + id);
        const json now = json::parse(got.body, nullptr, false);
        status = got.ok() && now.is_object() ? now.value("status", "") : "failed";
    }
    return id;
}

bool Session::destroy(const std::string& sandboxId)
{
    const HttpResponse r = m_api.request("DELETE", "/api/sandboxes/" + sandboxId);
    if (!r.ok() && r.status != 404) {
        m_error = "DELETE /api/sandboxes/" + sandboxId + ": " + r.describe();
        return false;
    }
    m_live.erase(sandboxId);
    return true;
}

} // namespace lizard::bench
