#pragma once
// The one place that calls waitpid in the agent (PID 1 of the sandbox). Every exit status
// goes to the exec that forked that pid; orphans re-parented to PID 1 are reaped too. A child
// killed by a signal is written to the agent's log (stderr, agent.log) as one line that
// lizard-local turns into the sandbox's system log (sandboxes/logwatch.*):
//   lizard-agent: exit-signal ts=<unix ms> pid=<pid> signal=SIGKILL comm=<name> cmd=<command>
// (cmd: the exec's command line, empty for other processes).
// SIGCHLD must be blocked in every thread before start() (the reaper uses sigwait).

#include <memory>
#include <mutex>
#include <string>
#include <sys/types.h>
#include <unordered_map>

namespace lizard::agent {

// Where one child's exit status lands; `eventFd` becomes readable when it did.
class ExitSlot
{
public:
    ExitSlot();
    ~ExitSlot();
    ExitSlot(const ExitSlot&) = delete;
    ExitSlot& operator=(const ExitSlot&) = delete;

    int eventFd() const { return m_eventFd; }
    bool exited() const;
    int status() const;
    void deliver(int status);

private:
    int m_eventFd = -1;
    mutable std::mutex m_mutex;
    bool m_exited = false;
    int m_status = 0;
};

class Reaper
{
public:
    void start();

    // Hold this lock from before fork() until watch() so the reaper cannot reap the child
    // before its slot exists.
    std::unique_lock<std::mutex> lockForSpawn() { return std::unique_lock<std::mutex>(m_mutex); }
    // `command`: the exec's command line, named in the log if a signal ends it.
    std::shared_ptr<ExitSlot> watchLocked(pid_t pid, std::string command = {});

private:
    void run();
    void reapAll();
    void logSignalExit(pid_t pid, int sig);

    std::mutex m_mutex;
    struct Watched
    {
        std::shared_ptr<ExitSlot> slot;
        std::string command;
    };
    std::unordered_map<pid_t, Watched> m_slots;
};

} // namespace lizard::agent
