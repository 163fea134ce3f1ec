#include "benchmarks.h"
#include "stats.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace lizard::bench {

Figure measureExec(ApiClient& api, const std::string& sandboxId, int runs,
                   std::optional<Reference> reference)
{
    Figure f{.name = "exec of `true`, round trip",
             .statistic = "median of " + std::to_string(runs),
             .unit = "ms",
             .target = 2,
             .reference = std::move(reference)};
    const std::string path = "/api/sandboxes/" + sandboxId + "/exec";
    const std::string body = R"({"cmd":["true"]})";
    std::vector<double> samples;
    const int warmup = 3;
    for (int i = 0; i < warmup + runs; ++i) {
        const auto start = Clock::now();
        const HttpResponse r = api.request("POST", path, body);
        const double ms = msSince(start);
        const auto answer = nlohmann::json::parse(r.body, nullptr, false);
        if (!r.ok() || !answer.is_object() || answer.value("exitCode", -1) != 0) {
            f.error = "POST " + path + ": " + r.describe();
            return f;
        }
        if (i >= warmup)
            samples.push_back(ms);
    }
    f.value = median(samples);
    f.note = spreadNote(samples);
    return f;
}

} // namespace lizard::bench
