#pragma once
// The SDK's SandboxSchedule and SandboxScheduleRun as JSON.

#include "sandboxes/schedules/scheduler.h"
#include "store/schedulerecords.h"

#include <nlohmann/json.hpp>

namespace lizard::api {

nlohmann::json scheduleJson(const sandboxes::ScheduleState& schedule);
// durationMs is null until the run is over.
nlohmann::json scheduleRunJson(const store::ScheduleRunRecord& run);

} // namespace lizard::api
