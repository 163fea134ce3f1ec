#pragma once
// The JSON of the metrics routes (metricsroutes.cpp, metricsstream.*): the SDK's ServiceMetrics
// series (`[{t, value}]`, unknown points left out) with lizard-local's additions.

#include "runtime/runtime.h"
#include "sandboxes/metricssampler.h"
#include "store/records.h"

#include <nlohmann/json.hpp>

namespace lizard::api {

// One point's known figures: {t, cpu, memory, pids, disk, networkRx, networkTx, diskRead,
// diskWrite} (cpu in cores, levels in bytes or tasks, rates in bytes per second).
nlohmann::json metricPointJson(const sandboxes::MetricPoint& point);
nlohmann::json lifecycleMarkJson(const sandboxes::LifecycleMark& mark);
// What bounds the sandbox, as the charts draw it: cpus (only where cgroups enforce it),
// memoryMb and `memory` ("cgroup": the sandbox's total; "process": each process's data), pids,
// diskGb (only where the layer is bounded).
nlohmann::json metricLimitsJson(const store::SandboxRecord& sandbox,
                                const runtime::DiskState& disk);
// GET /api/sandboxes/{id}/metrics.
nlohmann::json sandboxMetricsJson(const store::SandboxRecord& sandbox,
                                  const runtime::DiskState& disk,
                                  const sandboxes::MetricsSampler::View& view,
                                  const std::string& range, int intervalMs);

} // namespace lizard::api
