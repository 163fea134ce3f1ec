#pragma once
// One run of a schedule: wakes the sandbox if it is paused, runs the command through the
// sandbox's agent (as the exec route does: under the sandbox's confinement, as root, in
// /workspace when the sandbox has one, else root's home), keeps its output (runoutput.h), puts
// a sandbox it woke back to sleep, and records itself (the run's row, the sandbox's activity
// log and system log).

#include "runtime/agentclient.h"
#include "sandboxes/schedules/runoutput.h"
#include "store/schedulerecords.h"

#include <boost/asio/any_io_executor.hpp>
#include <functional>
#include <memory>
#include <mutex>

namespace lizard::store {
class ScheduleStore;
}

namespace lizard::sandboxes {

class SandboxManager;

class ScheduleRun : public std::enable_shared_from_this<ScheduleRun>
{
public:
    // `ended` runs once, on a worker or I/O thread, with the run as it ended.
    using Ended = std::function<void(const store::ScheduleRunRecord&)>;

    ScheduleRun(SandboxManager& sandboxes, store::ScheduleStore& store,
                boost::asio::any_io_executor io, store::ScheduleRecord schedule, Ended ended);

    // Records the run (status running) and begins; id() is known from the constructor on.
    void start();
    // Ends the command early (the schedule was deleted); a woken sandbox still goes back to
    // sleep.
    void cancel();
    const std::string& id() const { return m_run.id; }
    // The run as it is now, its output so far included.
    store::ScheduleRunRecord snapshot() const;

private:
    void begin();
    void execute(const std::string& socketPath);
    void runCommand(const std::shared_ptr<runtime::AgentClient>& agent, std::string cwd);
    void commandEnded(std::string status, std::optional<int> exitCode, std::string error);
    void end();
    std::string label() const; // "schedule \"name\" (sch_…)"

    SandboxManager& m_sandboxes;
    store::ScheduleStore& m_store;
    boost::asio::any_io_executor m_io;
    const store::ScheduleRecord m_schedule;
    Ended m_ended;

    mutable std::mutex m_mutex; // guards m_run, m_output, m_cancel, m_cancelled
    store::ScheduleRunRecord m_run;
    RunOutput m_output;
    std::shared_ptr<runtime::Cancel> m_cancel;
    bool m_cancelled = false;
};

} // namespace lizard::sandboxes
