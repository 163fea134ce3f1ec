#include "store/schedulestore.h"

#include "store/database.h"

#include <sqlite3.h>

namespace lizard::store {

namespace {

constexpr const char* kScheduleColumns =
    "id, sandbox_id, name, every, every_seconds, cron, timezone, command, timeout_seconds, "
    "enabled, disabled_reason, anchor_at, next_run_at, last_run_at, last_status, "
    "consecutive_failures, skipped_count, created_at";
constexpr const char* kRunColumns = "id, schedule_id, sandbox_id, status, woke, slept, started_at, "
                                    "ended_at, exit_code, output, error";

ScheduleRecord scheduleFrom(const Statement& q)
{
    ScheduleRecord r;
    r.id = q.text(0);
    r.sandboxId = q.text(1);
    r.name = q.text(2);
    r.every = q.text(3);
    r.everySeconds = q.integer(4);
    r.cron = q.text(5);
    r.timezone = q.text(6);
    r.command = q.text(7);
    r.timeoutSeconds = int(q.integer(8));
    r.enabled = q.integer(9) != 0;
    r.disabledReason = q.text(10);
    r.anchorMs = q.integer(11);
    r.nextRunAtMs = q.integer(12);
    r.lastRunAtMs = q.integer(13);
    r.lastStatus = q.text(14);
    r.consecutiveFailures = int(q.integer(15));
    r.skippedCount = q.integer(16);
    r.createdAtMs = q.integer(17);
    return r;
}

ScheduleRunRecord runFrom(const Statement& q)
{
    ScheduleRunRecord r;
    r.id = q.text(0);
    r.scheduleId = q.text(1);
    r.sandboxId = q.text(2);
    r.status = q.text(3);
    r.woke = q.integer(4) != 0;
    r.slept = q.integer(5) != 0;
    r.startedAtMs = q.integer(6);
    r.endedAtMs = q.integer(7);
    if (!q.isNull(8))
        r.exitCode = int(q.integer(8));
    r.output = q.text(9);
    r.error = q.text(10);
    return r;
}

// Binds the schedule's fields from `first` on, in kScheduleColumns' order after the id.
void bindSchedule(Statement& q, int first, const ScheduleRecord& r)
{
    q.bind(first, r.sandboxId).bind(first + 1, r.name).bind(first + 2, r.every);
    q.bind(first + 3, r.everySeconds).bind(first + 4, r.cron).bind(first + 5, r.timezone);
    q.bind(first + 6, r.command).bind(first + 7, int64_t(r.timeoutSeconds));
    q.bind(first + 8, int64_t(r.enabled)).bind(first + 9, r.disabledReason);
    q.bind(first + 10, r.anchorMs).bind(first + 11, r.nextRunAtMs);
    q.bind(first + 12, r.lastRunAtMs).bind(first + 13, r.lastStatus);
    q.bind(first + 14, int64_t(r.consecutiveFailures)).bind(first + 15, r.skippedCount);
    q.bind(first + 16, r.createdAtMs);
}

void bindExitCode(Statement& q, int index, const std::optional<int>& code)
{
    if (code)
        q.bind(index, int64_t(*code));
    else
        q.bindNull(index);
}

} // namespace

Result<std::vector<ScheduleRecord>> ScheduleStore::all() const
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(),
                std::string("SELECT ") + kScheduleColumns + " FROM schedules ORDER BY created_at");
    std::vector<ScheduleRecord> out;
    while (q.step())
        out.push_back(scheduleFrom(q));
    if (q.failed())
        return m_db.failure("cannot read schedules");
    return out;
}

Status ScheduleStore::insert(const ScheduleRecord& r)
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(), std::string("INSERT INTO schedules(") + kScheduleColumns +
                                   ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    q.bind(1, r.id);
    bindSchedule(q, 2, r);
    if (!q.run())
        return m_db.failure("cannot record the schedule");
    return okStatus();
}

Status ScheduleStore::update(const ScheduleRecord& r)
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(),
                "UPDATE schedules SET sandbox_id = ?, name = ?, every = ?, every_seconds = ?, "
                "cron = ?, timezone = ?, command = ?, timeout_seconds = ?, enabled = ?, "
                "disabled_reason = ?, anchor_at = ?, next_run_at = ?, last_run_at = ?, "
                "last_status = ?, consecutive_failures = ?, skipped_count = ?, created_at = ? "
                "WHERE id = ?");
    bindSchedule(q, 1, r);
    q.bind(18, r.id);
    if (!q.run())
        return m_db.failure("cannot update the schedule");
    if (sqlite3_changes(m_db.handle()) == 0)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "schedule " + r.id + " not found"};
    return okStatus();
}

Status ScheduleStore::remove(const std::string& id)
{
    std::lock_guard lock(m_db.mutex());
    Statement runs(m_db.handle(), "DELETE FROM schedule_runs WHERE schedule_id = ?");
    runs.bind(1, id);
    Statement schedule(m_db.handle(), "DELETE FROM schedules WHERE id = ?");
    schedule.bind(1, id);
    if (!runs.run() || !schedule.run())
        return m_db.failure("cannot delete the schedule");
    return okStatus();
}

Status ScheduleStore::insertRun(const ScheduleRunRecord& r)
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(), std::string("INSERT INTO schedule_runs(") + kRunColumns +
                                   ") SELECT ?,?,?,?,?,?,?,?,?,?,? WHERE EXISTS "
                                   "(SELECT 1 FROM schedules WHERE id = ?)");
    q.bind(1, r.id).bind(2, r.scheduleId).bind(3, r.sandboxId).bind(4, r.status);
    q.bind(5, int64_t(r.woke)).bind(6, int64_t(r.slept)).bind(7, r.startedAtMs);
    q.bind(8, r.endedAtMs);
    bindExitCode(q, 9, r.exitCode);
    q.bind(10, r.output).bind(11, r.error).bind(12, r.scheduleId);
    if (!q.run())
        return m_db.failure("cannot record the run");
    return okStatus();
}

Status ScheduleStore::updateRun(const ScheduleRunRecord& r)
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(), "UPDATE schedule_runs SET status = ?, woke = ?, slept = ?, "
                               "ended_at = ?, exit_code = ?, output = ?, error = ? WHERE id = ?");
    q.bind(1, r.status).bind(2, int64_t(r.woke)).bind(3, int64_t(r.slept)).bind(4, r.endedAtMs);
    bindExitCode(q, 5, r.exitCode);
    q.bind(6, r.output).bind(7, r.error).bind(8, r.id);
    if (!q.run())
        return m_db.failure("cannot update the run");
    return okStatus();
}

Result<std::vector<ScheduleRunRecord>> ScheduleStore::runs(const std::string& scheduleId,
                                                           int limit) const
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(), std::string("SELECT ") + kRunColumns +
                                   " FROM schedule_runs WHERE schedule_id = ? "
                                   "ORDER BY started_at DESC, rowid DESC LIMIT ?");
    q.bind(1, scheduleId).bind(2, int64_t(limit));
    std::vector<ScheduleRunRecord> out;
    while (q.step())
        out.push_back(runFrom(q));
    if (q.failed())
        return m_db.failure("cannot read the runs");
    return out;
}

Status ScheduleStore::pruneRuns(const std::string& scheduleId, int keep)
{
    std::lock_guard lock(m_db.mutex());
    Statement q(m_db.handle(), "DELETE FROM schedule_runs WHERE schedule_id = ?1 AND rowid NOT IN "
                               "(SELECT rowid FROM schedule_runs WHERE schedule_id = ?1 "
                               "ORDER BY started_at DESC, rowid DESC LIMIT ?2)");
    q.bind(1, scheduleId).bind(2, int64_t(keep));
    if (!q.run())
        return m_db.failure("cannot drop old runs");
    return okStatus();
}

Result<std::vector<ScheduleRunRecord>> ScheduleStore::interruptUnfinished(int64_t nowMs)
{
    std::lock_guard lock(m_db.mutex());
    std::vector<ScheduleRunRecord> out;
    {
        Statement q(m_db.handle(), std::string("SELECT ") + kRunColumns +
                                       " FROM schedule_runs WHERE status = 'running'");
        while (q.step())
            out.push_back(runFrom(q));
        if (q.failed())
            return m_db.failure("cannot read the runs");
    }
    Statement q(m_db.handle(), "UPDATE schedule_runs SET status = 'interrupted', ended_at = ?, "
                               "error = ? WHERE status = 'running'");
    const std::string why = "lizard-local stopped during the run";
    q.bind(1, nowMs).bind(2, why);
    if (!q.run())
        return m_db.failure("cannot mark interrupted runs");
    for (auto& r : out) {
        r.status = "interrupted";
        r.endedAtMs = nowMs;
        r.error = why;
    }
    return out;
}

} // namespace lizard::store
