#pragma once
// slirp4netns for a sandbox's network namespace. It exits when the sandbox's PID 1 dies:
// PID 1 holds the write end of the pipe whose read end is slirp4netns' --exit-fd.

#include "agent/build/launchconfig.h"

namespace lizard::agent {

struct Slirp
{
    pid_t pid = -1;
    int readyFd = -1;
};

// See SlirpPipes (launchconfig.h).
bool openSlirpPipes(SlirpPipes& pipes);

// `usernsFd` is the user namespace that owns the sandbox's network namespace (PID 1 has left
// it by the time slirp4netns joins). `cgroupDirFd`, when not -1, is the cgroup v2 group it
// starts in (cgroupfork.h). Closes readyWriteFd and exitReadFd on this side.
Slirp startSlirp(const LaunchConfig& config, pid_t initPid, int exitReadFd, int readyWriteFd,
                 int usernsFd, int cgroupDirFd);
// True once slirp4netns configured tap0 (as relayed by PID 1); kills it and returns false
// otherwise.
bool waitSlirpReady(Slirp& slirp, int timeoutMs);

} // namespace lizard::agent
