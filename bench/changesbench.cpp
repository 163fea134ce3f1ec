// What a sandbox changed: GET /api/sandboxes/{id}/changes with `files` new files in it, against
// find's walk of the same files inside the sandbox (the stat of each file is most of both).
#include "benchmarks.h"
#include "stats.h"

#include <nlohmann/json.hpp>

namespace lizard::bench {

using nlohmann::json;

Figure measureChanges(ApiClient& api, const std::string& sandboxId, int files, int runs)
{
    Figure f{.name = "changes list, " + std::to_string(files) + " files",
             .statistic = "median of " + std::to_string(runs),
             .unit = "ms",
             .target = 1000};
    const std::string dir = "/root/lizard-bench-changes";
    const json make{{"cmd", "mkdir -p " + dir + " && cd " + dir + " && seq " +
                                std::to_string(files) + " | xargs touch"},
                    {"timeoutMs", 600000}};
    const HttpResponse made =
        api.request("POST", "/api/sandboxes/" + sandboxId + "/exec", make.dump());
    const json m = json::parse(made.body, nullptr, false);
    if (!made.ok() || !m.is_object() || m.value("exitCode", -1) != 0) {
        f.error = "making the files: HTTP " + std::to_string(made.status) + " " +
                  made.body.substr(0, 200);
        return f;
    }
    std::vector<double> ms;
    std::size_t count = 0;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        const HttpResponse r = api.request("GET", "/api/sandboxes/" + sandboxId + "/changes");
        ms.push_back(msSince(start));
        const json j = json::parse(r.body, nullptr, false);
        if (!r.ok() || !j.is_object()) {
            f.error = "HTTP " + std::to_string(r.status) + " " + r.body.substr(0, 200);
            return f;
        }
        count = j.value("count", std::size_t(0));
    }
    f.value = median(ms);
    f.note = std::to_string(count) + " entries";
    // The reference: the same stats by find inside the sandbox, timed there.
    const json walk{{"cmd", "s=$(date +%s%N); find " + dir +
                                " -printf '%s %m\\n' > /dev/null; e=$(date +%s%N); "
                                "echo $(( (e - s) / 1000 ))"}};
    const HttpResponse w =
        api.request("POST", "/api/sandboxes/" + sandboxId + "/exec", walk.dump());
    const json wj = json::parse(w.body, nullptr, false);
    if (w.ok() && wj.is_object() && wj.value("exitCode", -1) == 0)
        f.reference = Reference{"find -printf of the same files, in the sandbox",
                                std::atof(wj.value("stdout", std::string()).c_str()) / 1000.0};
    return f;
}

} // namespace lizard::bench
