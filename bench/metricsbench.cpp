// What resource metrics cost: a lizard-local of its own (its sampler then samples only these)
// with N idle sandboxes, the sampler thread's CPU time over `seconds` as a share of one core
// (lizard-local reports it in GET /api/projects/{ref}/metrics, "sampler"), and the latency of
// GET /api/sandboxes/{id}/metrics?range=1h with those sandboxes sampled.
#include "benchmarks.h"
#include "serverprocess.h"
#include "stats.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

namespace lizard::bench {

using nlohmann::json;

namespace {

struct SamplerReading
{
    double cpuMs = 0, wallMs = 0;
    int sandboxes = 0;
    bool ok = false;
};

SamplerReading readSampler(ApiClient& api, const std::string& projectId)
{
    const HttpResponse r = api.request("GET", "/api/projects/" + projectId + "/metrics");
    const json j = json::parse(r.body, nullptr, false);
    SamplerReading out;
    if (!r.ok() || !j.is_object() || !j.contains("sampler"))
        return out;
    const json& s = j["sampler"];
    out.cpuMs = s.value("cpuMs", 0.0);
    out.wallMs = s.value("wallMs", 0.0);
    out.sandboxes = s.value("sandboxes", 0);
    out.ok = true;
    return out;
}

} // namespace

std::pair<Figure, Figure> measureMetricsCost(const std::string& localBin, int sandboxes,
                                             double seconds, int latencyRuns)
{
    // The name fits the figure's column; the statistic says what idles.
    Figure cost{.name = "metrics sampler, " + std::to_string(sandboxes) + " idle",
                .statistic = "sandboxes, " + std::to_string(int(seconds)) + " s",
                .unit = "% of a core",
                .target = 1};
    Figure latency{.name = "GET metrics?range=1h",
                   .statistic = "median of " + std::to_string(latencyRuns),
                   .unit = "ms",
                   .target = 20};
    std::string dirTemplate =
        (std::filesystem::temp_directory_path() / "lizard-bench-metrics-XXXXXX").string();
    if (mkdtemp(dirTemplate.data()) == nullptr) {
        cost.error = latency.error = std::string("mkdtemp: ") + std::strerror(errno);
        return {cost, latency};
    }
    const std::filesystem::path dir = dirTemplate;
    std::filesystem::create_directories(dir / "data");
    std::string error;
    {
        // Room for them all: the default --max-running is below 50 on most machines.
        ServerProcess server(localBin, (dir / "data").string(), freePort(),
                             {"--max-running", std::to_string(sandboxes + 8)});
        if (server.start(error)) {
            ApiClient api(server.url(), server.key());
            Session session(api); // deletes the sandboxes before the server stops
            const std::vector<std::string> ids = session.createRunningMany(sandboxes, 900000);
            if (int(ids.size()) != sandboxes)
                error = session.error();
            // Idle: wait until the sampler has seen them all and the creates have settled.
            SamplerReading before;
            const auto settle = Clock::now();
            while (error.empty() && msSince(settle) < 30000) {
                std::this_thread::sleep_for(std::chrono::seconds(1));
                before = readSampler(api, session.projectId());
                if (before.ok && before.sandboxes >= sandboxes && msSince(settle) >= 5000)
                    break;
            }
            if (error.empty() && (!before.ok || before.sandboxes < sandboxes))
                error = "the sampler did not report every sandbox within 30 s";
            if (error.empty()) {
                std::this_thread::sleep_for(std::chrono::milliseconds(int(seconds * 1000)));
                const SamplerReading after = readSampler(api, session.projectId());
                if (!after.ok || after.wallMs <= before.wallMs) {
                    error = "GET /api/projects/{ref}/metrics did not report the sampler";
                } else {
                    cost.value =
                        100.0 * (after.cpuMs - before.cpuMs) / (after.wallMs - before.wallMs);
                    char note[96];
                    std::snprintf(note, sizeof note, "%.1f ms of CPU in %.1f s",
                                  after.cpuMs - before.cpuMs,
                                  (after.wallMs - before.wallMs) / 1000);
                    cost.note = note;
                }
                std::vector<double> times;
                for (int i = 0; error.empty() && i < latencyRuns; ++i) {
                    const auto begin = Clock::now();
                    const HttpResponse r =
                        api.request("GET", "/api/sandboxes/" + ids[size_t(i) % ids.size()] +
                                               "/metrics?range=1h");
                    if (!r.ok())
                        error = r.describe();
                    times.push_back(msSince(begin));
                }
                if (error.empty()) {
                    latency.value = median(times);
                    latency.note = spreadNote(times);
                }
            }
        }
    }
    if (!error.empty()) {
        if (cost.value == 0)
            cost.error = error;
        latency.error = error;
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    return {cost, latency};
}

} // namespace lizard::bench
