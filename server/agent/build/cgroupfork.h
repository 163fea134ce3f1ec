#pragma once
// Children that start in a cgroup v2 group instead of moving into it.
//
// Moving a process into a cgroup (a write to cgroup.procs) takes the kernel's global lock of
// thread groups, whose writer waits for an RCU grace period when the lock was idle: 8 ms a
// move on this 2-core VM, more on a desktop with many CPUs. cgroup v1 has a way around it (a
// thread moving itself through `tasks`, launcher.cpp); cgroup v2 has clone3's
// CLONE_INTO_CGROUP (Linux 5.7), whose child is born in the group and takes only the lock's
// cheap reading side.
#include <string>
#include <sys/types.h>
#include <vector>

namespace lizard::agent {

// The directory of a cgroup's `.../cgroup.procs` file; empty for any other path.
std::string cgroupDirOf(const std::string& procsFile);

// The group of `procsFiles` (the cgroup.procs files the sandbox joins) when it is one group
// on a cgroup2 file system, opened as a directory; -1 otherwise (cgroup v1, whose several
// hierarchies the child could not be born in at once, or no cgroups).
int openCgroupV2Dir(const std::vector<std::string>& procsFiles);

// fork(), whose child starts in the cgroup v2 directory `cgroupDirFd` when it is not -1.
// Only for a process with one thread, and a child that execs or _exits: the child of the raw
// clone3 keeps the C library's record of its parent's thread id (as crun's children do), which
// matters only to raise() and pthread_kill(). On a kernel without CLONE_INTO_CGROUP it fails
// with ENOSYS, E2BIG or EINVAL, which `intoCgroupUnsupported` recognises.
pid_t forkInto(int cgroupDirFd);
bool intoCgroupUnsupported(int error);

} // namespace lizard::agent
