// LinuxRuntime: pause and resume. The cgroup freezer where the sandbox has one (every
// process, also ones forked meanwhile, stops atomically); otherwise SIGSTOP/SIGCONT of the
// agent's process tree. Memory stays either way.
#include "runtime/agent_gate.h"
#include "runtime/linux_runtime.h"
#include "runtime/proc_info.h"
#include "runtime/process_tree.h"

#include <chrono>
#include <csignal>
#include <thread>

namespace lizard::runtime {

namespace {

constexpr int kFreezeTimeoutMs = 2000;

bool treeStopped(pid_t root)
{
    for (pid_t pid : processTree(root)) {
        const auto st = readProcStat(pid);
        if (st && st->state != 'T' && st->state != 't' && st->state != 'Z')
            return false;
    }
    return true;
}

} // namespace

Status LinuxRuntime::freeze(const SandboxHandle& handle)
{
    if (!isPresent(handle))
        return Error{404, "NOT_FOUND", "sandbox " + handle.id + " is not running"};
    // Calls in flight wait through the freeze instead of reporting a wedged agent.
    setAgentFrozen(handle.socketPath, true);
    if (!m_cgroups.freezerKind(handle.id).empty()) {
        if (auto e = m_cgroups.setFrozen(handle.id, true, kFreezeTimeoutMs); !e.empty()) {
            m_cgroups.setFrozen(handle.id, false, kFreezeTimeoutMs);
            setAgentFrozen(handle.socketPath, false);
            return Error{500, "PAUSE_FAILED", e};
        }
        return okStatus();
    }
    signalTree(handle.initPid, SIGSTOP);
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(kFreezeTimeoutMs);
    while (!treeStopped(handle.initPid)) {
        if (std::chrono::steady_clock::now() >= deadline) {
            signalTree(handle.initPid, SIGCONT);
            setAgentFrozen(handle.socketPath, false);
            return Error{500, "PAUSE_FAILED", "the sandbox's processes did not all stop"};
        }
        signalTree(handle.initPid, SIGSTOP); // children forked meanwhile
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return okStatus();
}

Status LinuxRuntime::thaw(const SandboxHandle& handle)
{
    if (!isPresent(handle))
        return Error{404, "NOT_FOUND", "sandbox " + handle.id + " is not running"};
    if (!m_cgroups.freezerKind(handle.id).empty()) {
        if (auto e = m_cgroups.setFrozen(handle.id, false, kFreezeTimeoutMs); !e.empty())
            return Error{500, "RESUME_FAILED", e};
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
