#include "benchmarks.h"
#include "stats.h"

#include <cstdio>

namespace lizard::bench {

Figure measureCreate(Session& session, int runs, std::optional<Reference> reference)
{
    Figure f{.name = "sandbox create -> running",
             .statistic = "median of " + std::to_string(runs),
             .unit = "ms",
             .target = 20,
             .reference = std::move(reference)};
    std::vector<double> samples;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        const std::string id = session.createRunning(600000);
        const double ms = msSince(start);
        if (id.empty()) {
            f.error = session.error();
            return f;
        }
        samples.push_back(ms);
        if (!session.destroy(id)) {
            f.error = session.error();
            return f;
        }
    }
    f.value = median(samples);
    char note[96];
    std::snprintf(note, sizeof note, "p90 %.1f ms, max %.1f ms", quantile(samples, 0.9),
                  quantile(samples, 1.0));
    f.note = note;
    return f;
}

} // namespace lizard::bench
