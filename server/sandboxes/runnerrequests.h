#pragma once
// Runs that the code runner's serve mode takes from its inbox (resources/runner/PROTOCOL.md,
// "Serve mode"): the app writes each request as a file through the files API, and the serve
// exec's stdout carries the answer. The files route notes a run request here before it writes
// the file; the serve exec that answers it (serveruns.h) takes it at its first event and
// records the run as a runCode entry, as a one-shot run is.

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace lizard::sandboxes {

class RunnerRequests
{
public:
    // Larger request files are written but not decoded: their run is not recorded as runCode.
    static constexpr size_t kMaxRequestBytes = 4u << 20;
    // Requests noted and not yet answered, per sandbox; the oldest go first.
    static constexpr size_t kMaxPendingPerSandbox = 64;

    // Whether `path` is a request file of a serve inbox:
    // /tmp/.lizard-code/.requests[/<inbox>]/req-<name>.json.
    static bool isRequestPath(const std::string& path);

    // Notes the request in `content` when it is a run ("action": "run"): its context,
    // language, code and the names (never the values) of its env variables. Returns whether
    // it was noted.
    bool note(const std::string& sandboxId, const std::string& path, const std::string& content);
    // The file could not be written: the run will not come.
    void forget(const std::string& sandboxId, const std::string& path);

    // The noted run `req` of the inbox folder `inbox` (as the runner's "ready" event names it),
    // with "startMs" (when it was noted) added; taken out of the table.
    std::optional<nlohmann::json> take(const std::string& sandboxId, const std::string& inbox,
                                       const std::string& req);
    // The sandbox ended.
    void drop(const std::string& sandboxId);

private:
    struct Noted
    {
        std::string key; // "<inbox>\n<req>"
        std::string path;
        nlohmann::json run;
    };
    static std::string keyOf(const std::string& folder, const std::string& req);

    std::mutex m_mutex;
    std::map<std::string, std::deque<Noted>> m_pending; // by sandbox
};

} // namespace lizard::sandboxes
