#pragma once
// The body of a schedule's create (POST /api/sandboxes/{id}/schedules) or update (PATCH
// /api/sandbox-schedules/{id}), read into ScheduleSettings: types and formats here, the
// combination and the server's bounds in the scheduler. A `prompt` is refused: prompt
// schedules need the Lizard cloud's coding agents.

#include "common/result.h"
#include "sandboxes/schedules/schedulesettings.h"

#include <nlohmann/json.hpp>

namespace lizard::api {

// 400 PROMPT_SCHEDULES_CLOUD_ONLY for a prompt; INVALID_SCHEDULE / INVALID_ARGUMENT otherwise.
Result<sandboxes::ScheduleSettings> parseScheduleSettings(const nlohmann::json& body);

} // namespace lizard::api
