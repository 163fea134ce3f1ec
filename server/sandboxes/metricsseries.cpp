#include "sandboxes/metricsseries.h"

#include <algorithm>

namespace lizard::sandboxes {

MetricPoint MetricsSeries::Open::close() const
{
    MetricPoint p;
    p.t = start;
    for (int i = 0; i < MetricPoint::kFigures; ++i) {
        if (count[i] == 0)
            continue;
        p.figure(i) = MetricPoint::isLevel(i) ? max[i] : sum[i] / count[i];
    }
    return p;
}

void MetricsSeries::closeOpen(int tier)
{
    TierState& s = m_tiers[tier];
    if (s.open.start < 0)
        return;
    const MetricPoint bucket = s.open.close();
    s.closed.push_back(bucket);
    m_justClosed.emplace_back(tier, bucket);
    s.closedUntil = s.open.start + kTiers[tier].stepMs;
    s.open = Open{};
}

void MetricsSeries::feed(int tier, const MetricPoint& sample)
{
    TierState& s = m_tiers[tier];
    if (sample.t < s.closedUntil)
        return; // already in a closed bucket (a stored series replayed at load)
    const int64_t step = kTiers[tier].stepMs;
    const int64_t start = sample.t - sample.t % step;
    if (s.open.start >= 0 && s.open.start != start)
        closeOpen(tier);
    if (s.open.start < 0)
        s.open.start = start;
    for (int i = 0; i < MetricPoint::kFigures; ++i) {
        const double v = sample.figure(i);
        if (std::isnan(v))
            continue;
        s.open.sum[i] += v;
        s.open.max[i] = s.open.count[i] == 0 ? v : std::max(s.open.max[i], v);
        ++s.open.count[i];
    }
}

void MetricsSeries::add(const MetricPoint& sample)
{
    if (!m_raw.empty() && sample.t <= m_raw.back().t)
        return; // the clock went back: keep the series in time order
    m_raw.push_back(sample);
    for (int tier = 0; tier < 2; ++tier)
        feed(tier, sample);
    advance(sample.t);
}

void MetricsSeries::advance(int64_t nowMs)
{
    while (!m_raw.empty() && m_raw.front().t < nowMs - kRawKeepMs)
        m_raw.pop_front();
    for (int tier = 0; tier < 2; ++tier) {
        TierState& s = m_tiers[tier];
        if (s.open.start >= 0 && s.open.start + kTiers[tier].stepMs <= nowMs)
            closeOpen(tier);
        while (!s.closed.empty() && s.closed.front().t < nowMs - kTiers[tier].keepMs)
            s.closed.pop_front();
    }
}

void MetricsSeries::restoreBucket(int tier, const MetricPoint& bucket)
{
    TierState& s = m_tiers[tier];
    if (!s.closed.empty() && bucket.t <= s.closed.back().t)
        return;
    s.closed.push_back(bucket);
    s.closedUntil = bucket.t + kTiers[tier].stepMs;
}

std::vector<MetricPoint> MetricsSeries::range(int64_t nowMs, int64_t rangeMs) const
{
    const int64_t from = nowMs - rangeMs;
    std::vector<MetricPoint> out;
    int64_t rawFrom = from;
    if (rangeMs > kRawKeepMs) {
        const int tier = rangeMs <= kTiers[0].keepMs ? 0 : 1;
        const TierState& s = m_tiers[tier];
        for (const MetricPoint& p : s.closed)
            if (p.t >= from)
                out.push_back(p);
        rawFrom = std::max(from, s.closedUntil);
    }
    for (const MetricPoint& p : m_raw)
        if (p.t >= rawFrom)
            out.push_back(p);
    return out;
}

} // namespace lizard::sandboxes
