#pragma once
// The schedules of sandboxes (the official SDK's sandbox.schedule and Sandbox.*Schedule*):
// keeps each schedule's next run, fires it with a timer, starts a ScheduleRun (never two of one
// schedule at once: a due time that finds the previous run still going is skipped and
// counted), counts failures in a row and switches a schedule off after
// ScheduleLimits::maxFailures of them. Due times the server was not there for (stopped,
// or the machine asleep) are skipped and counted, never run late in a burst.
// Thread-safe; timers run on the I/O context, runs on the sandbox manager's workers.

#include "common/result.h"
#include "http/beast.h"
#include "sandboxes/schedules/cronexpression.h"
#include "sandboxes/schedules/schedulesettings.h"
#include "sandboxes/schedules/timezone.h"
#include "store/schedulerecords.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace lizard::store {
class Store;
}

namespace lizard::sandboxes {

class SandboxManager;
class ScheduleRun;

// A schedule as the API shows it.
struct ScheduleState
{
    store::ScheduleRecord record;
    bool running = false; // a run is in progress
};

class Scheduler
{
public:
    Scheduler(store::Store& store, SandboxManager& sandboxes, http::net::io_context& ioc,
              ScheduleLimits limits);
    ~Scheduler();

    // Before serving, after the sandbox manager's reconciliation: loads the schedules, ends runs
    // a stopped server left behind (interrupted; a sandbox they woke goes back to sleep),
    // counts the due times missed meanwhile as skipped, and arms the timers.
    void start();
    // Stops the timers; runs in progress are left to end (or to be found interrupted at the next
    // start).
    void shutdown();

    // NotFound (sandbox), InvalidArgument (INVALID_SCHEDULE, INVALID_CRON, INVALID_TIMEZONE),
    // LimitReached (LIMIT_EXCEEDED: schedules per sandbox).
    Result<ScheduleState> create(const std::string& sandboxId, const ScheduleSettings& settings);
    // Of sandboxes still alive, oldest first; `sandboxId` empty: all.
    std::vector<ScheduleState> list(const std::string& sandboxId = {});
    Result<ScheduleState> get(const std::string& id);
    Result<ScheduleState> update(const std::string& id, const ScheduleSettings& settings);
    Status remove(const std::string& id);
    // Starts a run now and switches the schedule on; Conflict (SCHEDULE_RUNNING) while a run
    // is in progress.
    Result<ScheduleState> runNow(const std::string& id);
    // Newest first, the one in progress (with its output so far) included.
    Result<std::vector<store::ScheduleRunRecord>> runs(const std::string& id, int limit);

    const ScheduleLimits& limits() const { return m_limits; }

private:
    struct Entry
    {
        store::ScheduleRecord record;
        std::optional<CronExpression> cron;
        std::shared_ptr<const TimeZone> zone;
        std::shared_ptr<ScheduleRun> run;
        std::shared_ptr<http::net::steady_timer> timer;
    };

    // The next due time after `afterMs` (0: none).
    static int64_t nextAfter(const Entry& e, int64_t afterMs);
    // Due times in (fromMs, toMs], at most `cap`.
    static int64_t dueBetween(const Entry& e, int64_t fromMs, int64_t toMs, int64_t cap = 100000);
    // Checks the merged record and fills the entry's parsed cron and zone.
    Status validate(Entry& e) const;
    ScheduleState stateOf(const Entry& e) const { return {e.record, e.run != nullptr}; }
    bool sandboxAlive(const std::string& sandboxId) const;
    // Under m_mutex: forgets a schedule whose sandbox ended (the store's trigger deleted it).
    void dropLocked(const std::string& id);
    void armLocked(Entry& e);
    void onTimer(const std::string& id, const std::shared_ptr<http::net::steady_timer>& timer);
    // Under m_mutex: a ScheduleRun for the entry (started by the caller once unlocked).
    std::shared_ptr<ScheduleRun> newRunLocked(Entry& e);
    void runEnded(const store::ScheduleRunRecord& run);
    void saveLocked(Entry& e);
    void logSkipped(const Entry& e, int64_t count, const std::string& why);

    store::Store& m_store;
    SandboxManager& m_sandboxes;
    http::net::io_context& m_ioc;
    const ScheduleLimits m_limits;

    std::mutex m_mutex;
    std::map<std::string, Entry> m_entries;
    bool m_stopped = false;
};

} // namespace lizard::sandboxes
