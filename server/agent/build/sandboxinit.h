#pragma once
// The sandbox's PID 1: namespaces, root file system, then the agent loop.

#include "agent/build/launchconfig.h"

namespace lizard::agent {

// Descriptors the launcher opened on the host side and hands down.
struct SandboxFds
{
    int templateRoot = -1;
    int usrDirs = -1;
    int hostUsr = -1; // the host's /usr idmapped (hostusr.h), or -1: /usr itself
    int usrLocal = -1;
    int sandboxDir = -1;
    int listen = -1;
    int slirpExit = -1;
    int log = -1;
    int volume = -1;      // the volume bound at /workspace, if any
    int dnsUpstream = -1; // allowedHosts with names: the forwarder's upstream (allowpolicy.h)
    // A quota file system (quotamount.h): the channel to its daemon, the read end of the
    // daemon's lifeline (PID 1 keeps it), and, once mounted, the mount's root (the layer).
    int quotaChannel = -1;
    int lifeline = -1;
    int layer = -1;
    // The workload's cgroup.procs (or cgroup.threads), opened with the host's credentials (the
    // kernel checks a migration against the opener's), for the exec'd commands to write themselves
    // into.
    int workloadCgroup = -1;
};

// Runs in the user-namespace child: unshares the other namespaces and forks PID 1, whose
// host pid it reports as "P <pid>". PID 1 reports "R" once it serves requests.
int spawnSandboxInit(const LaunchConfig& config, const SandboxFds& fds, int statusFd);

} // namespace lizard::agent
