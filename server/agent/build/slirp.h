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

// `usernsFd` is the user namespace that owns the sandbox's network namespace (PID 1 may have
// left it by the time slirp4netns joins); `netnsFd` that network namespace, or -1: slirp4netns
// opens PID 1's (SlirpPipes). Closes readyWriteFd and exitReadFd on this side.
Slirp startSlirp(const LaunchConfig& config, pid_t initPid, int exitReadFd, int readyWriteFd,
                 int usernsFd, int netnsFd);
// True once slirp4netns configured tap0; kills it and returns false otherwise.
bool waitSlirpReady(Slirp& slirp, int timeoutMs);

} // namespace lizard::agent
