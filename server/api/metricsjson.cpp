#include "api/metricsjson.h"

#include "api/sizes.h"

#include <cmath>

namespace lizard::api {

namespace {

constexpr const char* kMetricsFigureNames[sandboxes::MetricPoint::kFigures] = {
    "cpu", "memory", "pids", "disk", "networkRx", "networkTx", "diskRead", "diskWrite"};

// Cores to a thousandth; bytes, tasks and rates as whole numbers: the answer stays small.
nlohmann::json metricsFigureValue(int figure, double v)
{
    if (figure == 0)
        return std::round(v * 1000.0) / 1000.0;
    return static_cast<uint64_t>(std::llround(std::max(0.0, v)));
}

} // namespace

nlohmann::json metricPointJson(const sandboxes::MetricPoint& p)
{
    nlohmann::json j = {{"t", p.t}};
    for (int i = 0; i < sandboxes::MetricPoint::kFigures; ++i)
        if (!std::isnan(p.figure(i)))
            j[kMetricsFigureNames[i]] = metricsFigureValue(i, p.figure(i));
    return j;
}

nlohmann::json lifecycleMarkJson(const sandboxes::LifecycleMark& m)
{
    return {{"t", m.t}, {"kind", m.kind}, {"message", m.message}};
}

nlohmann::json metricLimitsJson(const store::SandboxRecord& s, const runtime::DiskState& disk)
{
    nlohmann::json j = nlohmann::json::object();
    if (s.limitsEnforced)
        j["cpus"] = s.cpus;
    if (s.limitsEnforced || s.handle.rlimitsApplied) {
        j["memoryMb"] = s.memoryMb;
        j["memory"] = s.limitsEnforced ? "cgroup" : "process";
        j["pids"] = pidsForSize(s.size);
    }
    if (disk.gb > 0)
        j["diskGb"] = disk.gb;
    return j;
}

nlohmann::json sandboxMetricsJson(const store::SandboxRecord& s, const runtime::DiskState& disk,
                                  const sandboxes::MetricsSampler::View& view,
                                  const std::string& range, int intervalMs)
{
    nlohmann::json j = {
        {"sandboxId", s.id},
        {"range", range},
        {"intervalMs", intervalMs},
        {"status", s.status},
        {"source", view.source.empty() ? nlohmann::json(nullptr) : nlohmann::json(view.source)}};
    for (int i = 0; i < sandboxes::MetricPoint::kFigures; ++i) {
        nlohmann::json series = nlohmann::json::array();
        for (const auto& p : view.points)
            if (!std::isnan(p.figure(i)))
                series.push_back({{"t", p.t}, {"value", metricsFigureValue(i, p.figure(i))}});
        j[kMetricsFigureNames[i]] = std::move(series);
    }
    j["limits"] = metricLimitsJson(s, disk);
    nlohmann::json events = nlohmann::json::array();
    for (const auto& m : view.marks)
        events.push_back(lifecycleMarkJson(m));
    j["events"] = std::move(events);
    j["latest"] = view.latest ? metricPointJson(*view.latest) : nlohmann::json(nullptr);
    return j;
}

} // namespace lizard::api
