#include "stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lizard::bench {

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> samples)
{
    if (samples.empty())
        return 0;
    std::sort(samples.begin(), samples.end());
    const size_t n = samples.size();
    return n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

double quantile(std::vector<double> samples, double q)
{
    if (samples.empty())
        return 0;
    std::sort(samples.begin(), samples.end());
    const double rank = std::ceil(std::clamp(q, 0.0, 1.0) * double(samples.size()));
    const size_t index = rank < 1 ? 0 : size_t(rank) - 1;
    return samples[std::min(index, samples.size() - 1)];
}

std::string spreadNote(const std::vector<double>& samples)
{
    char note[96];
    std::snprintf(note, sizeof note, "p90 %.2f ms, max %.2f ms", quantile(samples, 0.9),
                  quantile(samples, 1.0));
    return note;
}

} // namespace lizard::bench
