#pragma once
// Limits every sandbox gets from the kernel without cgroups (an ordinary user rarely has a
// writable cgroup): a bound on its number of tasks and on each process's data memory.
//
// RLIMIT_NPROC alone counts per uid, and root in the sandbox can setuid() to any of its 65536
// uids, each with a fresh count. Since Linux 5.14 the count lives in the user namespace's
// ucounts and is checked at every level up to the initial namespace, each against the limit
// the namespace's creator had. So the sandbox runs in a second user namespace, created under
// RLIMIT_NPROC = pids: every task of it, whatever its uid, counts against that limit at the
// first namespace's level, which holds nothing but this sandbox.

#include "agent/build/launchconfig.h"

#include <string>

namespace lizard::agent {

// Sets RLIMIT_NPROC (soft = hard = pids) and RLIMIT_DATA (memoryMb per process) on the
// calling process; children inherit them and nothing in the sandbox may raise them (that
// needs CAP_SYS_RESOURCE in the initial namespace). Zero fields are left alone. In
// AddressSanitizer builds the agent's own RLIMIT_DATA is higher by its shadow memory and the
// programs it runs get memoryMb (restoreProgramDataLimit).
std::string applySandboxRlimits(const SandboxRlimits& limits);

// In a forked child of the agent, right before execve: gives the program the sandbox's
// RLIMIT_DATA where the agent's own differs from it (AddressSanitizer builds, rlimits.cpp);
// a no-op otherwise. Async-signal-safe: a lone setrlimit().
void restoreProgramDataLimit();

// The launcher, on the host side before any namespace: the lowest oom_score_adj the kernel
// lets this process take (-1000 with CAP_SYS_RESOURCE, as root: never chosen; an ordinary
// user cannot go below what it inherited). PID 1 and its helpers inherit it; the sandbox's
// own execs raise theirs (serve/execspawn.h). Returns the value now in effect.
int lowerOomScore();

// First thing in the launcher child (root of the sandbox's first user namespace). Forks: the
// child applies the rlimits, unshares a nested user namespace (mapped 1:1 onto the first) and
// returns -1 to go on with the sandbox's setup inside it; this process writes its maps, waits
// for it and returns its exit code. Returns -1 at once when no limits were asked for. With the
// "root" id map (a root server, which has cgroups) it only applies the rlimits: no nesting.
int enterBoundedUserns(const LaunchConfig& config, int statusFd);

} // namespace lizard::agent
