#pragma once
// The one place that calls waitpid in the agent (PID 1 of the sandbox). Every exit status
// goes to the exec that forked that pid; orphans re-parented to PID 1 are reaped silently.
// SIGCHLD must be blocked in every thread before start() (the reaper uses sigwait).

#include <memory>
#include <mutex>
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
    std::shared_ptr<ExitSlot> watchLocked(pid_t pid);

private:
    void run();
    void reapAll();

    std::mutex m_mutex;
    std::unordered_map<pid_t, std::shared_ptr<ExitSlot>> m_slots;
};

} // namespace lizard::agent
