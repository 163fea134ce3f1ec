#include "api/schedulerequest.h"

#include "api/jsonbody.h"
#include "sandboxes/schedules/everyinterval.h"

#include <cmath>

namespace lizard::api {

Result<sandboxes::ScheduleSettings> parseScheduleSettings(const nlohmann::json& body)
{
    Fields f(body);
    sandboxes::ScheduleSettings s;
    if (const auto prompt = body.find("prompt"); prompt != body.end() && !prompt->is_null())
        return Error{ErrorKind::InvalidArgument, "PROMPT_SCHEDULES_CLOUD_ONLY",
                     "prompt schedules run only on the Lizard cloud (its coding agents answer the "
                     "prompt); lizard-local runs command schedules: give \"command\" instead"};
    if (const auto name = body.find("name"); name != body.end()) {
        if (name->is_null())
            s.name = std::optional<std::string>();
        else if (name->is_string())
            s.name = name->get<std::string>().empty()
                         ? std::optional<std::string>()
                         : std::optional<std::string>(name->get<std::string>());
        else
            return invalidArgument("field \"name\" must be a string or null");
    }
    if (const auto every = body.find("every"); every != body.end() && !every->is_null()) {
        if (every->is_number_integer()) {
            const int64_t seconds = every->get<int64_t>();
            if (seconds < 1 || seconds > sandboxes::kMaxEverySeconds)
                return Error{ErrorKind::InvalidArgument, "INVALID_SCHEDULE",
                             "field \"every\" must be from 1 second to 366 days, got " +
                                 std::to_string(seconds)};
            s.everySeconds = seconds;
            s.every = sandboxes::formatEvery(seconds);
        } else if (every->is_string()) {
            const std::string text = every->get<std::string>();
            auto seconds = sandboxes::parseEvery(text);
            if (!seconds)
                return seconds.error();
            s.everySeconds = *seconds;
            s.every = text;
        } else {
            return Error{ErrorKind::InvalidArgument, "INVALID_SCHEDULE",
                         "field \"every\" must be a number of seconds or a text such as \"5m\""};
        }
    }
    auto cron = f.optString("cron");
    if (!cron)
        return cron.error();
    s.cron = *cron;
    auto timezone = f.optString("timezone");
    if (!timezone)
        return timezone.error();
    s.timezone = *timezone;
    if (s.timezone && s.timezone->empty())
        return Error{ErrorKind::InvalidArgument, "INVALID_TIMEZONE",
                     "field \"timezone\" is empty (an IANA name such as Europe/Berlin, or UTC)"};
    auto command = f.optString("command");
    if (!command)
        return command.error();
    s.command = *command;
    if (const auto t = body.find("timeoutSeconds"); t != body.end() && !t->is_null()) {
        if (!t->is_number())
            return invalidArgument("field \"timeoutSeconds\" must be a number of seconds");
        const double v = t->get<double>();
        if (!(v >= 1 && v <= 86400) || v != std::floor(v))
            return invalidArgument(
                "field \"timeoutSeconds\" must be a whole number from 1 to 86400, got " +
                t->dump());
        s.timeoutSeconds = int64_t(v);
    }
    auto enabled = f.optBool("enabled");
    if (!enabled)
        return enabled.error();
    s.enabled = *enabled;
    // keepMemory: a local sleep is always the freezer's pause, which keeps memory
    // (DECISIONS.md, "Schedules"); accepted and answered as true. agent, model and
    // reasoningEffort belong to prompt schedules only.
    if (const auto keep = body.find("keepMemory");
        keep != body.end() && !keep->is_null() && !keep->is_boolean())
        return invalidArgument("field \"keepMemory\" must be a boolean");
    return s;
}

} // namespace lizard::api
