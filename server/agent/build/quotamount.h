#pragma once
// The sandbox's side of its quota file system (agent/quotafs/quotafsdaemon.h): in the sandbox's
// setup, as root of its user namespace and in its new mount namespace, mounts a FUSE file system
// served by the daemon behind `channel`, hands the daemon /dev/fuse and this user namespace,
// waits until it serves, and attaches the mount on the sandbox directory `dirFd`. The overlays'
// upper and work directories then live on it. Returns the mount's root (a descriptor), or -1 and
// `error`.

#include <cstdint>
#include <string>
#include <sys/types.h>

namespace lizard::agent {

// What the launcher keeps of the daemon it started: the sandbox's setup gets `channel` (to hand
// over /dev/fuse) and PID 1 the read end of `lifeline` (the daemon holds the only write end).
struct QuotaFsLink
{
    pid_t daemon = -1;
    int channel = -1;
    int lifeline = -1;
};

// On the host side, before the sandbox joins its cgroups: starts `lizard-agent quotafs` (this
// very binary) for the layer directory `dir` with the bounds `bytes` and `inodes`; its errors go
// to `log` (agent.log). Returns an empty link and `error` when it could not.
QuotaFsLink startQuotaFsDaemon(const std::string& dir, int log, std::int64_t bytes,
                               std::int64_t inodes, std::string& error);

int mountQuotaFs(int channel, int dirFd, std::string& error);

} // namespace lizard::agent
