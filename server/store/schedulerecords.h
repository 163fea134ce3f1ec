#pragma once
// Rows of the schedules and their runs (the official SDK's SandboxSchedule and
// SandboxScheduleRun; sandboxes/schedules/scheduler.h runs them).

#include <cstdint>
#include <optional>
#include <string>

namespace lizard::store {

struct ScheduleRecord
{
    std::string id; // "sch_…"
    std::string sandboxId;
    std::string name;         // empty: none (null)
    std::string every;        // as given ("5m", "90s"); empty for a cron schedule
    int64_t everySeconds = 0; // 0 for a cron schedule
    std::string cron;         // empty for an interval schedule
    std::string timezone = "UTC";
    std::string command;
    int timeoutSeconds = 600;
    bool enabled = true;
    std::string disabledReason; // why the server switched it off; empty when it did not
    int64_t anchorMs = 0;       // an interval's grid: runs fall on anchor + k × interval
    int64_t nextRunAtMs = 0;    // 0: none (disabled)
    int64_t lastRunAtMs = 0;    // 0: never ran
    std::string lastStatus;     // of the last finished run; empty: none
    int consecutiveFailures = 0;
    int64_t skippedCount = 0;
    int64_t createdAtMs = 0;
};

struct ScheduleRunRecord
{
    std::string id; // "schrun_…"
    std::string scheduleId;
    std::string sandboxId;
    std::string status = "running"; // running | succeeded | failed | timeout | interrupted
    bool woke = false;              // the run resumed its paused sandbox
    bool slept = false;             // and paused it again afterwards
    int64_t startedAtMs = 0;
    int64_t endedAtMs = 0; // 0: not over
    std::optional<int> exitCode;
    std::string output; // bounded (schedules/runoutput.h)
    std::string error;  // empty: none

    bool finished() const { return endedAtMs != 0; }
};

} // namespace lizard::store
