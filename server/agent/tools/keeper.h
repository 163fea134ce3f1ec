#pragma once
// `lizard-agent keep`: what a lizard-local holds on the host for its sandboxes (as root: each
// sandbox's disk image mounted on its directory, the pool of disks mounted ahead, a volume's
// image during an attach; in both modes: each sandbox's cgroups) must not outlive them when
// the server is killed and not started again. The server starts one keeper at startup, in a
// session of its own and outside every sandbox's cgroup, with a pidfd of the server as fd 3 and
// {"dataDir", "cgroupBases": [...]} on stdin. The keeper waits for the server to end; then,
// each time while holding the data directory's lock (so never beside a server that took over):
// it unmounts the pool and the volumes' attach mounts, and for every sandbox whose PID 1 no
// longer runs, unmounts its disk (the loop device auto-clears), ends its quota file system's
// daemon should it still run (runtime/quotadaemonfile.h) and removes its cgroups; it
// waits for the PID 1 of the sandboxes still running (orphans that end themselves at their
// deadline) and does the same as each ends. It exits when none is left, or when another
// lizard-local holds the lock: that server adopts or cleans up what is there.

#include <nlohmann/json.hpp>

namespace lizard::agent {

int runKeeper(const nlohmann::json& config, int serverPidfd);

} // namespace lizard::agent
