#include "sandboxes/schedules/scheduler.h"

#include "common/crypto.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "sandboxes/sandboxmanager.h"
#include "sandboxes/schedules/civiltime.h"
#include "sandboxes/schedules/nextcronrun.h"
#include "sandboxes/schedules/schedulerun.h"
#include "store/store.h"

#include <algorithm>

namespace lizard::sandboxes {

namespace net = http::net;

namespace {

constexpr int64_t kMaxTimerWaitMs = 60000; // wall-clock changes and suspends are seen this soon
constexpr size_t kMaxCommandBytes = 64 * 1024;
constexpr size_t kMaxNameBytes = 200;
constexpr int64_t kMaxTimeoutSeconds = 86400;

Error invalidSchedule(const std::string& message)
{
    return Error{ErrorKind::InvalidArgument, "INVALID_SCHEDULE", message};
}

Error scheduleNotFound(const std::string& id)
{
    return Error{ErrorKind::NotFound, "NOT_FOUND", "schedule " + id + " not found"};
}

std::string labelOf(const store::ScheduleRecord& r)
{
    return "schedule " + (r.name.empty() ? std::string() : "\"" + r.name + "\" ") + "(" + r.id +
           ")";
}

} // namespace

Scheduler::Scheduler(store::Store& store, SandboxManager& sandboxes, net::io_context& ioc,
                     ScheduleLimits limits)
    : m_store(store), m_sandboxes(sandboxes), m_ioc(ioc), m_limits(limits)
{
}

Scheduler::~Scheduler() = default;

int64_t Scheduler::nextAfter(const Entry& e, int64_t afterMs)
{
    if (e.record.everySeconds > 0) {
        const int64_t interval = e.record.everySeconds * 1000;
        const int64_t first = e.record.anchorMs + interval;
        if (afterMs < first)
            return first;
        return e.record.anchorMs +
               (floorDivide(afterMs - e.record.anchorMs, interval) + 1) * interval;
    }
    if (!e.cron || !e.zone)
        return 0;
    const auto next = nextCronRun(*e.cron, *e.zone, floorDivide(afterMs, 1000));
    return next ? *next * 1000 : 0;
}

int64_t Scheduler::dueBetween(const Entry& e, int64_t fromMs, int64_t toMs, int64_t cap)
{
    if (toMs <= fromMs)
        return 0;
    if (e.record.everySeconds > 0) {
        const int64_t interval = e.record.everySeconds * 1000;
        const auto gridPoints = [&](int64_t t) {
            return std::max<int64_t>(0, floorDivide(t - e.record.anchorMs, interval));
        };
        return std::min(cap, gridPoints(toMs) - gridPoints(fromMs));
    }
    int64_t count = 0;
    for (int64_t t = nextAfter(e, fromMs); t != 0 && t <= toMs && count < cap; t = nextAfter(e, t))
        ++count;
    return count;
}

Status Scheduler::validate(Entry& e) const
{
    store::ScheduleRecord& r = e.record;
    if (r.everySeconds > 0 && !r.cron.empty())
        return invalidSchedule("give either \"every\" or \"cron\", not both");
    if (r.everySeconds <= 0 && r.cron.empty())
        return invalidSchedule(
            "a schedule needs \"every\" (seconds, or \"5m\", \"1h\"…) or \"cron\" (5 fields)");
    if (r.everySeconds > 0 && r.everySeconds < m_limits.minIntervalSeconds)
        return invalidSchedule("\"every\" must be at least " +
                               std::to_string(m_limits.minIntervalSeconds) +
                               " seconds on this server (lizard-local --schedule-min-interval)");
    auto zone = TimeZone::named(r.timezone);
    if (!zone)
        return zone.error();
    e.zone = *zone;
    e.cron.reset();
    if (!r.cron.empty()) {
        auto cron = CronExpression::parse(r.cron);
        if (!cron)
            return cron.error();
        e.cron = *cron;
        if (!nextCronRun(*e.cron, *e.zone, floorDivide(nowMs(), 1000)))
            return Error{ErrorKind::InvalidArgument, "INVALID_CRON",
                         "cron expression \"" + r.cron + "\" never fires (no such date)"};
    }
    if (r.command.empty())
        return invalidSchedule("field \"command\" is required (the shell command to run; "
                               "\"prompt\" schedules run only on the Lizard cloud)");
    if (r.command.size() > kMaxCommandBytes)
        return invalidSchedule("field \"command\" is longer than 64 KiB");
    if (r.command.find('\0') != std::string::npos)
        return invalidSchedule("field \"command\" contains a NUL character");
    if (r.timeoutSeconds < 1 || r.timeoutSeconds > kMaxTimeoutSeconds)
        return invalidSchedule("field \"timeoutSeconds\" must be from 1 to 86400, got " +
                               std::to_string(r.timeoutSeconds));
    if (r.name.size() > kMaxNameBytes)
        return invalidSchedule("field \"name\" is longer than 200 characters");
    return okStatus();
}

namespace {

// The settings over a record; only a conflict within the settings themselves is an error here.
Status merge(store::ScheduleRecord& r, const ScheduleSettings& s)
{
    if (s.every && s.cron)
        return invalidSchedule("give either \"every\" or \"cron\", not both");
    if (s.name)
        r.name = s.name->value_or("");
    if (s.every) {
        r.every = *s.every;
        r.everySeconds = s.everySeconds.value_or(0);
        r.cron.clear();
    }
    if (s.cron) {
        r.cron = *s.cron;
        r.every.clear();
        r.everySeconds = 0;
    }
    if (s.timezone)
        r.timezone = *s.timezone;
    if (s.command)
        r.command = *s.command;
    if (s.timeoutSeconds) {
        if (*s.timeoutSeconds < 1 || *s.timeoutSeconds > kMaxTimeoutSeconds)
            return invalidSchedule("field \"timeoutSeconds\" must be from 1 to 86400, got " +
                                   std::to_string(*s.timeoutSeconds));
        r.timeoutSeconds = int(*s.timeoutSeconds);
    }
    if (s.enabled)
        r.enabled = *s.enabled;
    return okStatus();
}

} // namespace

bool Scheduler::sandboxAlive(const std::string& sandboxId) const
{
    return m_sandboxes.running(sandboxId) != nullptr;
}

void Scheduler::start()
{
    const int64_t now = nowMs();
    auto interrupted = m_store.schedules().interruptUnfinished(now);
    if (!interrupted)
        log::warn("schedules: " + interrupted.error().message);
    std::map<std::string, int> interruptedBySchedule;
    for (store::ScheduleRunRecord& run :
         interrupted ? *interrupted : std::vector<store::ScheduleRunRecord>{}) {
        ++interruptedBySchedule[run.scheduleId];
        const store::SandboxPtr sb = m_sandboxes.running(run.sandboxId);
        if (!sb)
            continue;
        m_sandboxes.logs().append(run.sandboxId, "warn", "schedule",
                                  "schedule (" + run.scheduleId + "): run " + run.id +
                                      " interrupted: lizard-local stopped during it");
        if (!run.woke || run.slept || sb->paused())
            continue;
        // The run woke its sandbox and the server went away before it slept again.
        m_sandboxes.pause(run.sandboxId, [this, run](Status s) mutable {
            if (!s)
                return log::warn("schedules: could not put " + run.sandboxId +
                                 " back to sleep after an interrupted run: " + s.error().message);
            run.slept = true;
            m_store.schedules().updateRun(run);
        });
    }
    auto all = m_store.schedules().all();
    if (!all) {
        log::warn("schedules: " + all.error().message + "; none will run");
        return;
    }
    std::lock_guard lock(m_mutex);
    for (store::ScheduleRecord& rec : *all) {
        if (!sandboxAlive(rec.sandboxId)) {
            m_store.schedules().remove(rec.id); // its sandbox ended while the server was away
            continue;
        }
        Entry e;
        e.record = std::move(rec);
        if (interruptedBySchedule.count(e.record.id) != 0)
            e.record.lastStatus = "interrupted";
        if (Status s = validate(e); !s) {
            // Valid when made; the host changed since (its tzdata, for one).
            e.record.enabled = false;
            e.record.disabledReason = s.error().message;
            e.record.nextRunAtMs = 0;
        }
        if (e.record.enabled && e.record.nextRunAtMs != 0 && e.record.nextRunAtMs <= now) {
            const int64_t missed = 1 + dueBetween(e, e.record.nextRunAtMs, now);
            e.record.skippedCount += missed;
            e.record.nextRunAtMs = nextAfter(e, now);
            logSkipped(e, missed, "lizard-local was not running at the time");
        }
        m_store.schedules().update(e.record);
        const std::string id = e.record.id;
        armLocked(m_entries[id] = std::move(e));
    }
    log::info("schedules: " + std::to_string(m_entries.size()) + " loaded");
}

void Scheduler::shutdown()
{
    std::lock_guard lock(m_mutex);
    m_stopped = true;
    for (auto& [id, e] : m_entries) {
        if (e.timer)
            e.timer->cancel();
        e.timer.reset();
    }
}

Result<ScheduleState> Scheduler::create(const std::string& sandboxId,
                                        const ScheduleSettings& settings)
{
    if (!sandboxAlive(sandboxId))
        return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + sandboxId + " not found"};
    Entry e;
    e.record.sandboxId = sandboxId;
    if (Status s = merge(e.record, settings); !s)
        return s.error();
    if (Status s = validate(e); !s)
        return s.error();
    const int64_t now = nowMs();
    e.record.id = "sch_" + randomLowerAlnum(16);
    e.record.createdAtMs = now;
    e.record.anchorMs = now;
    e.record.nextRunAtMs = e.record.enabled ? nextAfter(e, now) : 0;
    std::lock_guard lock(m_mutex);
    const auto count = std::count_if(m_entries.begin(), m_entries.end(), [&](const auto& kv) {
        return kv.second.record.sandboxId == sandboxId;
    });
    if (count >= m_limits.maxPerSandbox)
        return Error{ErrorKind::LimitReached, "LIMIT_EXCEEDED",
                     "sandbox " + sandboxId + " has " + std::to_string(count) +
                         " schedules, the most a sandbox may have; delete one first"};
    if (Status s = m_store.schedules().insert(e.record); !s)
        return s.error();
    const std::string id = e.record.id;
    Entry& added = m_entries[id] = std::move(e);
    armLocked(added);
    m_sandboxes.logs().append(
        sandboxId, "info", "schedule",
        labelOf(added.record) + " created: " +
            (added.record.cron.empty()
                 ? "every " + added.record.every
                 : "cron \"" + added.record.cron + "\" (" + added.record.timezone + ")"));
    return stateOf(added);
}

std::vector<ScheduleState> Scheduler::list(const std::string& sandboxId)
{
    std::lock_guard lock(m_mutex);
    std::vector<ScheduleState> out;
    std::vector<std::string> gone;
    for (const auto& [id, e] : m_entries) {
        if (!sandboxId.empty() && e.record.sandboxId != sandboxId)
            continue;
        if (!sandboxAlive(e.record.sandboxId))
            gone.push_back(id);
        else
            out.push_back(stateOf(e));
    }
    for (const auto& id : gone)
        dropLocked(id);
    std::sort(out.begin(), out.end(), [](const ScheduleState& a, const ScheduleState& b) {
        return a.record.createdAtMs != b.record.createdAtMs
                   ? a.record.createdAtMs < b.record.createdAtMs
                   : a.record.id < b.record.id;
    });
    return out;
}

Result<ScheduleState> Scheduler::get(const std::string& id)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_entries.find(id);
    if (it == m_entries.end())
        return scheduleNotFound(id);
    if (!sandboxAlive(it->second.record.sandboxId)) {
        dropLocked(id);
        return scheduleNotFound(id);
    }
    return stateOf(it->second);
}

Result<ScheduleState> Scheduler::update(const std::string& id, const ScheduleSettings& settings)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_entries.find(id);
    if (it == m_entries.end())
        return scheduleNotFound(id);
    if (!sandboxAlive(it->second.record.sandboxId)) {
        dropLocked(id);
        return scheduleNotFound(id);
    }
    Entry next;
    next.record = it->second.record;
    if (Status s = merge(next.record, settings); !s)
        return s.error();
    if (Status s = validate(next); !s)
        return s.error();
    const store::ScheduleRecord& before = it->second.record;
    const int64_t now = nowMs();
    const bool timing = settings.every || settings.cron || settings.timezone;
    const bool switchedOn = next.record.enabled && !before.enabled;
    if (switchedOn) {
        next.record.disabledReason.clear();
        next.record.consecutiveFailures = 0;
    }
    if (timing || switchedOn)
        next.record.anchorMs = now;
    if (!next.record.enabled)
        next.record.nextRunAtMs = 0;
    else if (timing || switchedOn || next.record.nextRunAtMs == 0)
        next.record.nextRunAtMs = nextAfter(next, now);
    if (Status s = m_store.schedules().update(next.record); !s) {
        if (s.error().kind == ErrorKind::NotFound)
            dropLocked(id);
        return s.error();
    }
    Entry& e = it->second;
    e.record = next.record;
    e.cron = next.cron;
    e.zone = next.zone;
    armLocked(e);
    return stateOf(e);
}

Status Scheduler::remove(const std::string& id)
{
    std::shared_ptr<ScheduleRun> run;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_entries.find(id);
        if (it == m_entries.end() || !sandboxAlive(it->second.record.sandboxId)) {
            if (it != m_entries.end())
                dropLocked(id);
            return scheduleNotFound(id);
        }
        if (Status s = m_store.schedules().remove(id); !s)
            return s;
        run = it->second.run;
        m_sandboxes.logs().append(it->second.record.sandboxId, "info", "schedule",
                                  labelOf(it->second.record) + " deleted");
        dropLocked(id);
    }
    if (run)
        run->cancel(); // a sandbox it woke still goes back to sleep
    return okStatus();
}

Result<ScheduleState> Scheduler::runNow(const std::string& id)
{
    std::shared_ptr<ScheduleRun> run;
    ScheduleState state;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_entries.find(id);
        if (it == m_entries.end())
            return scheduleNotFound(id);
        Entry& e = it->second;
        if (!sandboxAlive(e.record.sandboxId)) {
            dropLocked(id);
            return scheduleNotFound(id);
        }
        if (e.run)
            return Error{ErrorKind::Conflict, "SCHEDULE_RUNNING",
                         "a run of schedule " + id + " is in progress (since " +
                             isoUtc(e.record.lastRunAtMs) + "); runs never overlap"};
        if (!e.record.enabled) {
            const int64_t now = nowMs();
            e.record.enabled = true;
            e.record.disabledReason.clear();
            e.record.consecutiveFailures = 0;
            e.record.anchorMs = now;
            e.record.nextRunAtMs = nextAfter(e, now);
        }
        run = newRunLocked(e);
        if (Status s = m_store.schedules().update(e.record); !s) {
            e.run.reset();
            if (s.error().kind != ErrorKind::NotFound)
                return s.error();
            dropLocked(id);
            return scheduleNotFound(id);
        }
        armLocked(e);
        state = stateOf(e);
    }
    run->start();
    return state;
}

Result<std::vector<store::ScheduleRunRecord>> Scheduler::runs(const std::string& id, int limit)
{
    std::optional<store::ScheduleRunRecord> current;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_entries.find(id);
        if (it == m_entries.end() || !sandboxAlive(it->second.record.sandboxId))
            return scheduleNotFound(id);
        if (it->second.run)
            current = it->second.run->snapshot();
    }
    auto stored = m_store.schedules().runs(id, limit);
    if (!stored)
        return stored.error();
    if (current) {
        auto same = std::find_if(stored->begin(), stored->end(),
                                 [&](const auto& r) { return r.id == current->id; });
        if (same != stored->end())
            *same = *current;
        else
            stored->insert(stored->begin(), *current);
        if (int(stored->size()) > limit)
            stored->resize(size_t(limit));
    }
    return stored;
}

void Scheduler::dropLocked(const std::string& id)
{
    const auto it = m_entries.find(id);
    if (it == m_entries.end())
        return;
    if (it->second.timer)
        it->second.timer->cancel();
    m_entries.erase(it);
}

void Scheduler::armLocked(Entry& e)
{
    if (e.timer)
        e.timer->cancel();
    e.timer.reset();
    if (m_stopped || !e.record.enabled || e.record.nextRunAtMs == 0)
        return;
    const int64_t wait = std::clamp<int64_t>(e.record.nextRunAtMs - nowMs(), 0, kMaxTimerWaitMs);
    e.timer = std::make_shared<net::steady_timer>(m_ioc);
    e.timer->expires_after(std::chrono::milliseconds(wait));
    std::weak_ptr<net::steady_timer> weak = e.timer;
    e.timer->async_wait([this, id = e.record.id, weak](boost::system::error_code ec) {
        if (ec)
            return;
        if (auto timer = weak.lock())
            onTimer(id, timer);
    });
}

void Scheduler::onTimer(const std::string& id, const std::shared_ptr<net::steady_timer>& timer)
{
    std::shared_ptr<ScheduleRun> run;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_entries.find(id);
        if (m_stopped || it == m_entries.end() || it->second.timer != timer)
            return; // re-armed or dropped meanwhile
        Entry& e = it->second;
        if (!e.record.enabled || e.record.nextRunAtMs == 0)
            return;
        const int64_t now = nowMs();
        if (now < e.record.nextRunAtMs)
            return armLocked(e); // a long wait goes in steps (the wall clock may move)
        if (!sandboxAlive(e.record.sandboxId))
            return dropLocked(id);
        const int64_t due = e.record.nextRunAtMs;
        // The machine slept, or the server was too busy to fire in time: the due times it
        // slept through are skipped, and so is this one if it is long past.
        int64_t skipped = dueBetween(e, due, now);
        const bool late = now - due > m_limits.lateMs;
        if (late || skipped > 0)
            logSkipped(e, skipped + (late ? 1 : 0), "lizard-local could not run them in time");
        if (late)
            ++skipped;
        else if (e.run) {
            ++skipped;
            logSkipped(e, 1, "the previous run is still going");
        } else {
            run = newRunLocked(e);
        }
        e.record.skippedCount += skipped;
        e.record.nextRunAtMs = nextAfter(e, now);
        if (!m_store.schedules().update(e.record)) {
            // Gone with its sandbox, or the disk refuses: run what was due all the same; the
            // next check finds out which.
            log::warn(labelOf(e.record) + ": could not record its next run");
        }
        armLocked(e);
    }
    if (run)
        run->start();
}

std::shared_ptr<ScheduleRun> Scheduler::newRunLocked(Entry& e)
{
    // The run starts at the schedule's lastRunAt, to the millisecond (one clock reading).
    e.record.lastRunAtMs = nowMs();
    auto run = std::make_shared<ScheduleRun>(
        m_sandboxes, m_store.schedules(), m_ioc.get_executor(), e.record,
        [this](const store::ScheduleRunRecord& r) { runEnded(r); });
    e.run = run;
    return run;
}

void Scheduler::runEnded(const store::ScheduleRunRecord& run)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_entries.find(run.scheduleId);
    if (it == m_entries.end())
        return; // deleted meanwhile, or gone with its sandbox
    Entry& e = it->second;
    if (!e.run || e.run->id() != run.id)
        return;
    e.run.reset();
    e.record.lastStatus = run.status;
    if (run.status == "succeeded") {
        e.record.consecutiveFailures = 0;
    } else if (run.status == "failed" || run.status == "timeout") {
        ++e.record.consecutiveFailures;
        if (e.record.enabled && e.record.consecutiveFailures >= m_limits.maxFailures) {
            e.record.enabled = false;
            e.record.nextRunAtMs = 0;
            e.record.disabledReason = "switched off after " +
                                      std::to_string(e.record.consecutiveFailures) +
                                      " failed runs in a row (the last: " +
                                      (run.status == "timeout" ? std::string("timed out")
                                       : run.exitCode ? "exit code " + std::to_string(*run.exitCode)
                                                      : run.error) +
                                      "); enable it or run it to switch it on again";
            m_sandboxes.logs().append(e.record.sandboxId, "warn", "schedule",
                                      labelOf(e.record) + " " + e.record.disabledReason);
        }
    }
    if (Status s = m_store.schedules().update(e.record); !s) {
        if (s.error().kind == ErrorKind::NotFound)
            return dropLocked(run.scheduleId);
        log::warn(labelOf(e.record) + ": " + s.error().message);
    }
    m_store.schedules().pruneRuns(run.scheduleId, m_limits.runsKept);
    armLocked(e);
}

void Scheduler::logSkipped(const Entry& e, int64_t count, const std::string& why)
{
    if (count <= 0)
        return;
    m_sandboxes.logs().append(e.record.sandboxId, "warn", "schedule",
                              labelOf(e.record) + ": " + std::to_string(count) +
                                  (count == 1 ? " run" : " runs") + " skipped: " + why);
}

} // namespace lizard::sandboxes
