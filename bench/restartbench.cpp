// Restart of lizard-local with running sandboxes: a server of its own (the shared one of
// bench.sh keeps serving the other figures), N sandboxes started in it, then SIGTERM and a new
// start on the same data directory and port until every sandbox is listed running again
// (adopted). The figure is that whole span; the note splits it into stop and start.
#include "benchmarks.h"
#include "serverprocess.h"
#include "stats.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

namespace lizard::bench {

using nlohmann::json;

namespace {

// Polls the list until every id in `ids` is there and running (the restart adopted them).
bool allRunning(ApiClient& api, const std::vector<std::string>& ids, std::string& error)
{
    const auto begin = Clock::now();
    std::string last;
    while (msSince(begin) < 30000) {
        const HttpResponse r = api.request("GET", "/api/sandboxes");
        const json list = json::parse(r.body, nullptr, false);
        size_t running = 0;
        if (r.ok() && list.is_array()) {
            for (const json& s : list)
                running += s.value("status", "") == "running" &&
                           std::find(ids.begin(), ids.end(), s.value("sandboxId", "")) != ids.end();
            if (running == ids.size())
                return true;
        }
        last = r.ok() ? std::to_string(running) + " of " + std::to_string(ids.size()) + " running"
                      : r.describe();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    error = "the restarted server did not list every sandbox running within 30 s (" + last + ")";
    return false;
}

} // namespace

Figure measureRestart(const std::string& localBin, int sandboxes, int runs)
{
    Figure f{.name = "restart with " + std::to_string(sandboxes) + " sandboxes",
             .statistic = "median of " + std::to_string(runs),
             .unit = "ms",
             .target = 1000};
    std::string dirTemplate =
        (std::filesystem::temp_directory_path() / "lizard-bench-restart-XXXXXX").string();
    if (mkdtemp(dirTemplate.data()) == nullptr) {
        f.error = std::string("mkdtemp: ") + std::strerror(errno);
        return f;
    }
    const std::filesystem::path dir = dirTemplate;
    std::filesystem::create_directories(dir / "data");
    {
        ServerProcess server(localBin, (dir / "data").string(), freePort());
        std::string error;
        if (!server.start(error)) {
            f.error = error;
        } else {
            ApiClient api(server.url(), server.key());
            Session session(api); // deletes the sandboxes before the server stops
            const std::vector<std::string> ids = session.createRunningMany(sandboxes, 600000);
            if (int(ids.size()) != sandboxes)
                error = session.error();
            std::vector<double> total, stops, starts;
            for (int i = 0; error.empty() && i < runs; ++i) {
                const auto begin = Clock::now();
                server.stop();
                stops.push_back(msSince(begin));
                const auto started = Clock::now();
                if (server.start(error) && allRunning(api, ids, error)) {
                    starts.push_back(msSince(started));
                    total.push_back(msSince(begin));
                }
            }
            if (!error.empty()) {
                f.error = error;
                std::string ignored;
                // So that the sandboxes get deleted: they outlive a stopped server by design.
                // The session deletes them on the same port; if another process took that port
                // meanwhile, a server on a new one deletes them here.
                if (!server.running() && !server.start(ignored)) {
                    server.movePort(freePort());
                    if (server.start(ignored)) {
                        ApiClient moved(server.url(), server.key());
                        for (const std::string& id : ids)
                            moved.request("DELETE", "/api/sandboxes/" + id);
                    }
                }
            } else {
                f.value = median(total);
                char note[128];
                std::snprintf(note, sizeof note,
                              "stop %.0f ms + start to all adopted %.0f ms; max %.0f ms",
                              median(stops), median(starts), quantile(total, 1));
                f.note = note;
            }
        }
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    return f;
}

} // namespace lizard::bench
