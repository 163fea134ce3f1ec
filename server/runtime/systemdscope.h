#pragma once
// cgroup limits for an ordinary user without a delegated cgroup, through the systemd user
// manager: each sandbox's launcher runs in a transient scope (`systemd-run --user --scope`)
// with TasksMax, MemoryMax, MemorySwapMax and CPUQuota, which the user manager writes into
// the scope's cgroup v2 (its subtree is delegated to it on most desktops). Used only when a
// real try at startup shows those limits in a scope's cgroup; else the sandbox keeps its
// rlimits (server/agent/build/rlimits.h).

#include "runtime/runtime.h"

#include <string>
#include <sys/types.h>
#include <vector>

namespace lizard::runtime {

class SystemdScope
{
public:
    // Non-root, cgroup v2, systemd-run installed, a user manager reachable, and a probe scope
    // whose cgroup shows the limits asked for. Sets note() when not usable.
    void probe();
    bool usable() const { return !m_systemdRun.empty(); }
    const std::string& note() const { return m_note; }

    // The argv before the launcher's: systemd-run --user --scope ... -- (unit lizard-<id>).
    std::vector<std::string> prefix(const std::string& id, const Limits& limits) const;

    // True if `pid`'s cgroup v2 (under `cgroupRoot`) has exactly these pids, memory and cpu
    // limits: what start() reports as enforced, never what was only asked for.
    static bool enforced(pid_t pid, const Limits& limits,
                         const std::string& cgroupRoot = "/sys/fs/cgroup");
    // The property values for `limits` (exposed for the unit test).
    static std::vector<std::string> properties(const Limits& limits);

private:
    std::string m_systemdRun;
    std::string m_note;
};

} // namespace lizard::runtime
