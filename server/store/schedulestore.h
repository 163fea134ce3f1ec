#pragma once
// The schedules and their runs in lizard.db. SQLite only: the scheduler keeps the live state
// and writes each change through. A schedule goes with its sandbox: triggers of the schema
// delete it (and its runs) when the sandbox stops or its row is deleted, and updates and runs
// of a deleted schedule never bring it back.

#include "common/result.h"
#include "store/schedulerecords.h"

#include <string>
#include <vector>

namespace lizard::store {

class Database;

class ScheduleStore
{
public:
    explicit ScheduleStore(Database& db) : m_db(db) {}

    Result<std::vector<ScheduleRecord>> all() const;
    Status insert(const ScheduleRecord& schedule);
    // NotFound when the schedule is gone (its sandbox ended meanwhile).
    Status update(const ScheduleRecord& schedule);
    Status remove(const std::string& id);

    // A new run (status running) of a schedule that still exists, or its end.
    Status insertRun(const ScheduleRunRecord& run);
    Status updateRun(const ScheduleRunRecord& run);
    // Newest first, at most `limit`.
    Result<std::vector<ScheduleRunRecord>> runs(const std::string& scheduleId, int limit) const;
    // Keeps the newest `keep` runs of the schedule.
    Status pruneRuns(const std::string& scheduleId, int keep);
    // Runs a stopped or killed server left "running": now "interrupted", ended at `nowMs`.
    // Returns them as they are now.
    Result<std::vector<ScheduleRunRecord>> interruptUnfinished(int64_t nowMs);

private:
    Database& m_db;
};

} // namespace lizard::store
