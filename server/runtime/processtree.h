#pragma once
// A host process and its descendants, from /proc: the pause fallback where a sandbox has no
// cgroup freezer stops them with SIGSTOP.

#include <sys/types.h>
#include <vector>

namespace lizard::runtime {

// `root` and every descendant that runs now (root first).
std::vector<pid_t> processTree(pid_t root);

// The thread ids of process `pid` (empty when it is gone).
std::vector<pid_t> threadsOf(pid_t pid);

// Sends `signal` to the whole tree, again until no new process appears (a process that forks
// while the tree is being stopped). Returns how many processes got it.
int signalTree(pid_t root, int signal);

} // namespace lizard::runtime
