// What the activity log costs: two lizard-local of its own, one recording (the default) and
// one with --no-activity, measured in turns so that both see the same machine load: the exec
// round trip of `true` and the SSE throughput. Each figure is the relative cost in percent.
#include "benchmarks.h"
#include "serverprocess.h"
#include "stats.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

namespace lizard::bench {

namespace {

struct Side
{
    std::unique_ptr<ServerProcess> server;
    std::unique_ptr<ApiClient> api;
    std::unique_ptr<Session> session;
    std::string id;
    std::vector<double> execMs;
    std::vector<double> sseMBs;
};

bool startSide(Side& s, const std::string& bin, const std::filesystem::path& dir, bool recording,
               std::string& error)
{
    std::filesystem::create_directories(dir / "data");
    std::vector<std::string> args;
    if (!recording)
        args.push_back("--no-activity");
    s.server = std::make_unique<ServerProcess>(bin, (dir / "data").string(), freePort(), args);
    if (!s.server->start(error))
        return false;
    s.api = std::make_unique<ApiClient>(s.server->url(), s.server->key());
    s.session = std::make_unique<Session>(*s.api);
    if (!s.session->ensureProject() || (s.id = s.session->createRunning(900000)).empty()) {
        error = s.session->error();
        return false;
    }
    return true;
}

bool execOnce(Side& s, std::string& error)
{
    const std::string path = "/api/sandboxes/" + s.id + "/exec";
    const auto start = Clock::now();
    const HttpResponse r = s.api->request("POST", path, R"({"cmd":["true"]})");
    const double ms = msSince(start);
    const auto answer = nlohmann::json::parse(r.body, nullptr, false);
    if (!r.ok() || !answer.is_object() || answer.value("exitCode", -1) != 0) {
        error = "POST " + path + ": " + r.describe();
        return false;
    }
    s.execMs.push_back(ms);
    return true;
}

std::string fixed(double v, const char* unit)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f %s", v, unit);
    return buf;
}

} // namespace

std::pair<Figure, Figure> measureActivityCost(const std::string& localBin, int execRuns,
                                              int sseMegabytes, int sseRuns)
{
    Figure exec{.name = "activity: exec round trip",
                .statistic = std::to_string(execRuns) + " on/off, in turns",
                .unit = "%",
                .target = 5};
    Figure sse{.name = "activity: SSE throughput",
               .statistic =
                   std::to_string(sseRuns) + "×" + std::to_string(sseMegabytes) + " MiB on/off",
               .unit = "%",
               .target = 5};
    auto fail = [&](const std::string& e) {
        exec.error = sse.error = e;
        return std::make_pair(exec, sse);
    };
    std::string dirTemplate =
        (std::filesystem::temp_directory_path() / "lizard-bench-activity-XXXXXX").string();
    if (mkdtemp(dirTemplate.data()) == nullptr)
        return fail(std::string("mkdtemp: ") + std::strerror(errno));
    const std::filesystem::path dir = dirTemplate;
    std::string error;
    {
        Side on, off; // destroyed (sandboxes deleted, servers stopped) before the directory goes
        if (startSide(on, localBin, dir / "on", true, error) &&
            startSide(off, localBin, dir / "off", false, error)) {
            for (int i = 0; i < 3 && error.empty(); ++i) // warm-up, not counted
                execOnce(on, error) && execOnce(off, error);
            on.execMs.clear();
            off.execMs.clear();
            for (int i = 0; i < execRuns && error.empty(); ++i) {
                // Alternate which goes first, so that neither always follows the other.
                if (i % 2 == 0)
                    execOnce(on, error) && execOnce(off, error);
                else
                    execOnce(off, error) && execOnce(on, error);
            }
            for (int i = 0; i < sseRuns && error.empty(); ++i) {
                for (Side* s : {i % 2 == 0 ? &on : &off, i % 2 == 0 ? &off : &on}) {
                    const Figure f = measureSse(*s->api, s->id, sseMegabytes);
                    if (!f.error.empty()) {
                        error = f.error;
                        break;
                    }
                    s->sseMBs.push_back(f.value);
                }
            }
        }
        if (error.empty()) {
            const double onMs = median(on.execMs), offMs = median(off.execMs);
            exec.value = (onMs / offMs - 1.0) * 100.0;
            exec.note =
                "cost in %, medians: on " + fixed(onMs, "ms") + ", off " + fixed(offMs, "ms");
            const double onRate = median(on.sseMBs), offRate = median(off.sseMBs);
            sse.value = (1.0 - onRate / offRate) * 100.0;
            sse.note = "cost in %, medians: on " + fixed(onRate, "MB/s") + ", off " +
                       fixed(offRate, "MB/s");
        }
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (!error.empty())
        return fail(error);
    return {exec, sse};
}

} // namespace lizard::bench
