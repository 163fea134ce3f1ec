#pragma once
// Per-sandbox cgroups with cpu, memory and pids limits: cgroup v2 (a lizard-local subtree,
// delegated when not root) or v1 (memory, pids, cpu, freezer hierarchies). The launcher
// joins the returned cgroup.procs files before anything of the sandbox runs. The sandboxes'
// common parent (lizard-local) gets half the default cpu weight, below the server's.
//
// Within a sandbox, its PID 1 (the agent that answers the API) and what it execs share the
// CPU as two groups, not as one process among the sandbox's thousand: each command moves itself
// into the sandbox's workload cgroup (a child of the sandbox's cpu cgroup; on v2 a threaded
// one) before it runs, so a fork bomb at the pids limit on a busy host still leaves the agent
// half the sandbox's CPU. The limits stay on the sandbox's own cgroup, over both.

#include "runtime/cgroupnames.h"
#include "runtime/runtime.h"

#include <string>
#include <vector>

namespace lizard::runtime {

struct SandboxCgroups
{
    std::vector<std::string> procsFiles; // what the launcher writes its pid into
    // The workload's file that each exec'd command writes "0" into (the launcher opens it for
    // PID 1): cgroup.threads of a threaded v2 group, else cgroup.procs (v1: its `tasks` beside
    // it is used); empty where the sandbox has no such cgroup (commands stay with PID 1).
    std::string workloadProcsFile;
    bool limitsApplied = false;
};

class CgroupManager
{
public:
    // Probes the host: mode, base directories, whether limits can be set. `instance` names
    // this server's own subtree (lizard-local/<instance>/<id>): several servers on one host
    // (users, tests) must never see, let alone clean up, each other's sandboxes.
    void probe(const std::string& instance);
    // Removes this instance's (empty) subtree directories; sandboxes that still run keep them.
    void removeInstanceIfEmpty();

    const std::string& mode() const { return m_mode; }
    bool limitsAvailable() const { return m_limits; }
    const std::string& note() const { return m_note; }

    SandboxCgroups create(const std::string& id, const Limits& limits);
    // Kills what is left in the sandbox's cgroups and removes them. Idempotent.
    void remove(const std::string& id);
    // Lifts the cpu quota of a sandbox about to be killed: a thousand processes need cpu time
    // to exit, and under the quota a fork bomb's would take seconds to die.
    void unthrottle(const std::string& id) const;
    // Sends SIGKILL to every process of the sandbox's cgroups at once (cgroup.kill where the
    // kernel has it), not only through its PID 1: were PID 1's exit held up, its namespace's
    // other processes would otherwise go on until it completes.
    void killProcesses(const std::string& id) const;
    // Ids of sandbox cgroups that exist (for orphan cleanup).
    std::vector<std::string> existingIds() const;
    // The instance's directories, whose subdirectories are the sandboxes' cgroups.
    std::vector<std::string> bases() const;

    // The freezer of the sandbox's cgroup (cgroupmanager_freezer.cpp): "cgroup-v2", "cgroup-v1", or
    // empty when the sandbox has none (no cgroups here, or no freezer hierarchy).
    std::string freezerKind(const std::string& id) const;
    // Freezes or thaws and waits until the kernel reports it done (at most timeoutMs).
    // Returns an error text, empty on success.
    std::string setFrozen(const std::string& id, bool frozen, int timeoutMs) const;
    bool isFrozen(const std::string& id) const;
    // How many processes the kernel's OOM killer killed in the sandbox's memory cgroup so far
    // (memory.events or memory.oom_control, "oom_kill N"); -1 when the host does not say.
    long long oomKills(const std::string& id) const;

private:
    std::string freezerDir(const std::string& id) const;
    std::vector<std::string> dirsFor(const std::string& id) const;
    // Makes the agent's and the workload's children and updates `out`; where it cannot, `out`
    // stays one group.
    void splitAgentFromWorkload(const std::string& id, SandboxCgroups& out) const;
    bool applyLimits(const std::string& id, const Limits& limits) const;

    std::string m_mode = "none";
    bool m_limits = false;
    std::string m_note;
    std::string m_v2Base;               // v2: .../lizard-local
    std::vector<std::string> m_v1Bases; // v1: /sys/fs/cgroup/<ctrl>/lizard-local
};

} // namespace lizard::runtime
