#include "sandboxes/runnerrequests.h"

#include "common/timeutil.h"

namespace lizard::sandboxes {

namespace {

constexpr std::string_view kInboxRoot = "/tmp/.lizard-code/.requests";

std::string folderOf(const std::string& path)
{
    return path.substr(0, path.rfind('/'));
}

// "req-<name>.json" -> "<name>"
std::string nameOf(const std::string& path)
{
    const std::string file = path.substr(path.rfind('/') + 1);
    return file.substr(4, file.size() - 4 - 5);
}

} // namespace

bool RunnerRequests::isRequestPath(const std::string& path)
{
    if (path.rfind(kInboxRoot, 0) != 0)
        return false;
    const std::string rest = path.substr(kInboxRoot.size());
    const size_t slash = rest.rfind('/');
    if (rest.empty() || rest[0] != '/' || slash == std::string::npos)
        return false;
    // The inbox itself, or one named folder below it (the runner's own layout).
    if (slash != 0 && rest.find('/', 1) != slash)
        return false;
    const std::string file = rest.substr(slash + 1);
    return file.size() > 9 && file.rfind("req-", 0) == 0 &&
           file.compare(file.size() - 5, 5, ".json") == 0;
}

std::string RunnerRequests::keyOf(const std::string& folder, const std::string& req)
{
    return folder + "\n" + req;
}

bool RunnerRequests::note(const std::string& sandboxId, const std::string& path,
                          const std::string& content)
{
    if (!isRequestPath(path) || content.size() > kMaxRequestBytes)
        return false;
    auto request = nlohmann::json::parse(content, nullptr, false);
    if (!request.is_object() || request.value("action", std::string()) != "run")
        return false;
    const auto req = request.find("req");
    const std::string id =
        req != request.end() && req->is_string() ? req->get<std::string>() : nameOf(path);
    const std::string key = keyOf(folderOf(path), id);
    // Per-run env values may be secrets: only their names are kept, as for exec.
    nlohmann::json names = nlohmann::json::array();
    if (const auto it = request.find("envs"); it != request.end() && it->is_object())
        for (const auto& [name, value] : it->items())
            names.push_back(name);
    nlohmann::json run = {{"kind", "runCode"}, {"envNames", names}, {"startMs", nowMs()}};
    for (const char* field : {"context", "language", "code", "codeFile", "timeout", "cwd"})
        if (request.contains(field))
            run[field] = request[field];
    if (!run.contains("context") && !run.contains("language"))
        run["language"] = "python"; // the runner's default
    std::lock_guard lock(m_mutex);
    auto& queue = m_pending[sandboxId];
    for (auto it = queue.begin(); it != queue.end(); ++it) {
        if (it->key == key) {
            queue.erase(it); // the same name again: the newer file replaced the older
            break;
        }
    }
    queue.push_back({key, path, std::move(run)});
    if (queue.size() > kMaxPendingPerSandbox)
        queue.pop_front();
    return true;
}

void RunnerRequests::forget(const std::string& sandboxId, const std::string& path)
{
    std::lock_guard lock(m_mutex);
    const auto q = m_pending.find(sandboxId);
    if (q == m_pending.end())
        return;
    for (auto it = q->second.begin(); it != q->second.end(); ++it) {
        if (it->path == path) {
            q->second.erase(it);
            return;
        }
    }
}

std::optional<nlohmann::json> RunnerRequests::take(const std::string& sandboxId,
                                                   const std::string& inbox, const std::string& req)
{
    const auto key = keyOf(inbox, req);
    std::lock_guard lock(m_mutex);
    const auto q = m_pending.find(sandboxId);
    if (q == m_pending.end())
        return std::nullopt;
    for (auto it = q->second.begin(); it != q->second.end(); ++it) {
        if (it->key == key) {
            nlohmann::json run = std::move(it->run);
            q->second.erase(it);
            if (q->second.empty())
                m_pending.erase(q);
            return run;
        }
    }
    return std::nullopt;
}

void RunnerRequests::drop(const std::string& sandboxId)
{
    std::lock_guard lock(m_mutex);
    m_pending.erase(sandboxId);
}

} // namespace lizard::sandboxes
