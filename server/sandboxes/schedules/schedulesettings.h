#pragma once
// What a create or an update of a schedule asks for, as the route read it from the body:
// each field absent when the body did not name it (an update changes only those).

#include <cstdint>
#include <optional>
#include <string>

namespace lizard::sandboxes {

struct ScheduleSettings
{
    std::optional<std::optional<std::string>> name; // given; null clears it
    std::optional<std::string> every;               // the text as given, or formatEvery's
    std::optional<int64_t> everySeconds;            // with `every`
    std::optional<std::string> cron;
    std::optional<std::string> timezone;
    std::optional<std::string> command;
    std::optional<int64_t> timeoutSeconds;
    std::optional<bool> enabled;
};

// The bounds of schedules on this server (server/api/DECISIONS.md, "Schedules").
struct ScheduleLimits
{
    int64_t minIntervalSeconds = 10; // --schedule-min-interval
    int maxPerSandbox = 20;
    int runsKept = 50;      // per schedule, the oldest go first
    int maxFailures = 5;    // failed or timed-out runs in a row switch a schedule off
    int64_t lateMs = 60000; // a due time the server reaches later than this is skipped
};

} // namespace lizard::sandboxes
