#pragma once
// One sandbox's metrics over the last 24 hours at decreasing resolution: every sample for the
// last 10 minutes, 30-second buckets for 6 hours, 5-minute buckets for 24 hours. Bounded: at
// most 10 min / interval + 720 + 288 points. A bucket holds the mean of the rates (cpu,
// network, disk I/O) and the maximum of the levels (memory, pids, disk) of its samples, so that
// a peak near a limit is not averaged away. Not thread-safe (the sampler locks around it).

#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <vector>

namespace lizard::sandboxes {

struct MetricPoint
{
    static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
    int64_t t = 0;            // unix ms: the sample's time, or its bucket's start
    double cpu = kUnknown;    // cores in use (1.0 = one core busy)
    double memory = kUnknown; // bytes of working set
    double pids = kUnknown;   // tasks: processes and threads
    double disk = kUnknown;   // bytes in the writable layer
    double networkRx = kUnknown, networkTx = kUnknown; // bytes per second
    double diskRead = kUnknown, diskWrite = kUnknown;  // bytes per second
    static constexpr int kFigures = 8;
    double& figure(int i) { return (&cpu)[i]; }
    double figure(int i) const { return (&cpu)[i]; }
    // Levels are the maximum over a bucket; the rest (rates) the mean.
    static bool isLevel(int i) { return i == 1 || i == 2 || i == 3; }
};

class MetricsSeries
{
public:
    struct Tier
    {
        int64_t stepMs;
        int64_t keepMs;
    };
    static constexpr int64_t kRawKeepMs = 10 * 60 * 1000;
    static constexpr Tier kTiers[2] = {{30 * 1000, 6 * 3600 * 1000},
                                       {5 * 60 * 1000, 24 * 3600 * 1000}};

    // A sample (time order). Feeds the open bucket of each tier, closing one whose step ended.
    void add(const MetricPoint& sample);
    // Closes open buckets that ended by `nowMs` (a paused sandbox gives no samples) and drops
    // points older than their tier keeps.
    void advance(int64_t nowMs);
    // The buckets closed since the last call (tier 0 or 1, bucket), for the file.
    std::vector<std::pair<int, MetricPoint>> takeClosed() { return std::move(m_justClosed); }

    // The points of the last `rangeMs`: raw samples for a range within the raw window, else the
    // closed buckets of the finest tier that covers it, then the raw samples after them.
    std::vector<MetricPoint> range(int64_t nowMs, int64_t rangeMs) const;

    const std::deque<MetricPoint>& raw() const { return m_raw; }
    const std::deque<MetricPoint>& buckets(int tier) const { return m_tiers[tier].closed; }
    // Loading a stored series: closed buckets first, then the raw samples in order (add).
    void restoreBucket(int tier, const MetricPoint& bucket);
    bool empty() const { return m_raw.empty() && m_tiers[0].closed.empty(); }

private:
    struct Open
    {
        int64_t start = -1; // -1: none open
        double sum[MetricPoint::kFigures] = {};
        double max[MetricPoint::kFigures] = {};
        int count[MetricPoint::kFigures] = {};
        MetricPoint close() const;
    };
    struct TierState
    {
        std::deque<MetricPoint> closed;
        Open open;
        int64_t closedUntil = 0; // end of the last closed bucket: samples before it are in it
    };
    void feed(int tier, const MetricPoint& sample);
    void closeOpen(int tier);
    std::deque<MetricPoint> m_raw;
    TierState m_tiers[2];
    std::vector<std::pair<int, MetricPoint>> m_justClosed;
};

} // namespace lizard::sandboxes
