#include "api/scheduleviews.h"

#include "common/timeutil.h"

#include <algorithm>

namespace lizard::api {

namespace {

nlohmann::json textOrNull(const std::string& s)
{
    return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}

nlohmann::json timeOrNull(int64_t ms)
{
    return ms == 0 ? nlohmann::json(nullptr) : nlohmann::json(isoUtc(ms));
}

} // namespace

nlohmann::json scheduleJson(const sandboxes::ScheduleState& state)
{
    const store::ScheduleRecord& r = state.record;
    return {
        {"id", r.id},
        {"sandboxId", r.sandboxId},
        {"name", textOrNull(r.name)},
        {"every", r.everySeconds > 0 ? nlohmann::json(r.every) : nlohmann::json(nullptr)},
        {"everySeconds",
         r.everySeconds > 0 ? nlohmann::json(r.everySeconds) : nlohmann::json(nullptr)},
        {"cron", textOrNull(r.cron)},
        {"timezone", r.timezone},
        {"kind", "command"},
        {"prompt", nullptr},
        {"command", r.command},
        {"agent", nullptr},
        {"model", nullptr},
        {"reasoningEffort", nullptr},
        {"timeoutSeconds", r.timeoutSeconds},
        // A local pause is the cgroup freezer's (or SIGSTOP's): memory always stays.
        {"keepMemory", true},
        {"enabled", r.enabled},
        {"disabledReason", textOrNull(r.disabledReason)},
        {"nextRunAt", r.enabled ? timeOrNull(r.nextRunAtMs) : nlohmann::json(nullptr)},
        {"running", state.running},
        {"lastRunAt", timeOrNull(r.lastRunAtMs)},
        {"lastStatus", textOrNull(r.lastStatus)},
        {"consecutiveFailures", r.consecutiveFailures},
        {"skippedCount", r.skippedCount},
        {"createdAt", isoUtc(r.createdAtMs)},
    };
}

nlohmann::json scheduleRunJson(const store::ScheduleRunRecord& r)
{
    return {
        {"id", r.id},
        {"scheduleId", r.scheduleId},
        {"sandboxId", r.sandboxId},
        {"status", r.status},
        {"woke", r.woke},
        {"slept", r.slept},
        {"startedAt", isoUtc(r.startedAtMs)},
        {"endedAt", timeOrNull(r.endedAtMs)},
        {"finished", r.finished()},
        {"durationMs", r.finished()
                           ? nlohmann::json(std::max<int64_t>(0, r.endedAtMs - r.startedAtMs))
                           : nlohmann::json(nullptr)},
        {"exitCode", r.exitCode ? nlohmann::json(*r.exitCode) : nlohmann::json(nullptr)},
        {"promptId", nullptr},
        {"conversationId", nullptr},
        {"output",
         r.output.empty() && !r.finished() ? nlohmann::json(nullptr) : nlohmann::json(r.output)},
        {"error", textOrNull(r.error)},
    };
}

} // namespace lizard::api
