#pragma once
// Where a sandbox's quota file system daemon is recorded: <sandbox dir>/quotafs.pid, its pid and
// start time (pids are reused), beside init.pid. lizard-local writes it at the start; whoever
// cleans up after the sandbox (lizard-local, or the keeper for an orphan) ends the daemon if it
// outlived its sandbox. Shared by lizard-local and the keeper (lizard-agent keep).

#include <string>
#include <sys/types.h>

namespace lizard::runtime {

void recordQuotaDaemon(const std::string& sandboxDir, pid_t pid);

// Waits up to `graceMs` for the recorded daemon to end by itself (it does once the kernel drops
// the sandbox's mount), then kills it. Nothing when none is recorded or it is gone.
void endQuotaDaemon(const std::string& sandboxDir, int graceMs);

} // namespace lizard::runtime
