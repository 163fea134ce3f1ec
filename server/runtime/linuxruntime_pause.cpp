// LinuxRuntime: pause and resume. The cgroup freezer where the sandbox has one (every
// process, also ones forked meanwhile, stops atomically); otherwise SIGSTOP/SIGCONT of the
// agent's process tree. Memory stays either way.
#include "runtime/agentgate.h"
#include "runtime/linuxruntime.h"
#include "runtime/processtree.h"
#include "runtime/procinfo.h"

#include <chrono>
#include <csignal>
#include <fstream>
#include <string>
#include <thread>

namespace lizard::runtime {

namespace {

// How long a pause waits for every process to stop (either way). Under a full CPU a freeze
// takes tens of ms; the margin is for a host far busier than that (DECISIONS.md, "Pause").
constexpr int kFreezeTimeoutMs = 10000;
// How long a held process (below) that is not known to wait on the disk may keep the pause
// waiting: a vfork parent whose child is stopped waits until the resume. A disk wait is waited
// for (up to kFreezeTimeoutMs): the system call it is in would otherwise complete while the
// sandbox counts as paused (a rename landing after the pause answered, on a busy disk).
constexpr int kHeldSettleMs = 100;

struct TreeStop
{
    int processes = 0;
    int running = 0;     // with a thread that can still run code in user space
    int held = 0;        // in an uninterruptible sleep with SIGSTOP pending
    int heldOnDisk = 0;  // of those, ones whose kernel wait is known not to be a vfork's
    std::string example; // one that still runs, for the error: "sh (state R)"
};

// Where a thread sleeps in the kernel; empty when it cannot be read.
std::string wchanOf(pid_t tid)
{
    std::ifstream in("/proc/" + std::to_string(tid) + "/wchan");
    std::string name;
    std::getline(in, name);
    return name == "0" ? std::string() : name;
}

std::string commOf(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    std::getline(in, name);
    return name;
}

// Thread by thread: SIGSTOP stops a thread group one thread after the other, and the state
// in /proc/<pid>/stat is the main thread's only. A thread in an uninterruptible sleep cannot
// take the signal until it wakes, but with SIGSTOP pending it stops before it runs user code
// again: it counts as held. A vfork parent waits like that for its child, which is stopped,
// so it would never reach 'T' (the cgroup v2 freezer counts such a parent as frozen too).
TreeStop treeStop(pid_t root)
{
    TreeStop out;
    for (pid_t pid : processTree(root)) {
        ++out.processes;
        char runs = 0;
        bool held = false;
        std::string diskWait; // the kernel function, when known not to be a vfork's
        for (pid_t tid : threadsOf(pid)) {
            const auto st = readProcStat(tid);
            if (!st || st->state == 'T' || st->state == 't' || st->state == 'Z' || st->state == 'X')
                continue;
            if (st->state == 'D' && stopPending(pid)) {
                held = true;
                const std::string wchan = wchanOf(tid);
                // A vfork parent waits in kernel_clone (wait_for_vfork_done, inlined there).
                if (!wchan.empty() && wchan != "kernel_clone" && wchan != "wait_for_vfork_done")
                    diskWait = wchan;
            } else {
                runs = st->state;
            }
        }
        if (runs) {
            if (out.running++ == 0)
                out.example = commOf(pid) + " (state " + runs + ")";
        } else if (held) {
            ++out.held;
            if (!diskWait.empty() && out.heldOnDisk++ == 0 && out.running == 0)
                out.example = commOf(pid) + " (in " + diskWait + ")";
        }
    }
    return out;
}

} // namespace

Status LinuxRuntime::freeze(const SandboxHandle& handle)
{
    if (!isPresent(handle))
        return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + handle.id + " is not running"};
    // Calls in flight wait through the freeze instead of reporting a wedged agent.
    setAgentFrozen(handle.socketPath, true);
    if (!m_cgroups.freezerKind(handle.id).empty()) {
        if (auto e = m_cgroups.setFrozen(handle.id, true, kFreezeTimeoutMs); !e.empty()) {
            const std::string undo = m_cgroups.setFrozen(handle.id, false, kFreezeTimeoutMs);
            setAgentFrozen(handle.socketPath, false);
            return Error{ErrorKind::Internal, "PAUSE_FAILED",
                         e + (undo.empty() ? "; the sandbox was resumed and keeps running"
                                           : "; thawing it again failed too: " + undo)};
        }
        return okStatus();
    }
    signalTree(handle.initPid, SIGSTOP);
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0;; ++i) {
        const TreeStop now = treeStop(handle.initPid);
        const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::steady_clock::now() - start)
                                .count();
        if (now.running == 0 && now.heldOnDisk == 0 && (now.held == 0 || waited >= kHeldSettleMs))
            break;
        if (waited >= kFreezeTimeoutMs) {
            signalTree(handle.initPid, SIGCONT);
            setAgentFrozen(handle.socketPath, false);
            const std::string which = "one is " + now.example;
            return Error{ErrorKind::Internal, "PAUSE_FAILED",
                         std::to_string(now.running + now.heldOnDisk) + " of the sandbox's " +
                             std::to_string(now.processes) + " processes did not stop within " +
                             std::to_string(kFreezeTimeoutMs) + " ms (" + which +
                             "); the sandbox was resumed and keeps running"};
        }
        signalTree(handle.initPid, SIGSTOP); // children forked meanwhile
        std::this_thread::sleep_for(std::chrono::milliseconds(i < 50 ? 1 : 10));
    }
    return okStatus();
}

Status LinuxRuntime::thaw(const SandboxHandle& handle)
{
    if (!isPresent(handle))
        return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + handle.id + " is not running"};
    if (!m_cgroups.freezerKind(handle.id).empty()) {
        if (auto e = m_cgroups.setFrozen(handle.id, false, kFreezeTimeoutMs); !e.empty())
            return Error{ErrorKind::Internal, "RESUME_FAILED", e};
        setAgentFrozen(handle.socketPath, false);
        return okStatus();
    }
    signalTree(handle.initPid, SIGCONT);
    setAgentFrozen(handle.socketPath, false);
    return okStatus();
}

bool LinuxRuntime::isFrozen(const SandboxHandle& handle)
{
    if (!m_cgroups.freezerKind(handle.id).empty())
        return m_cgroups.isFrozen(handle.id);
    const auto st = readProcStat(handle.initPid);
    return st && (st->state == 'T' || st->state == 't');
}

bool LinuxRuntime::isPresent(const SandboxHandle& handle)
{
    return processMatches(handle.initPid, handle.initStartTime);
}

} // namespace lizard::runtime
