#pragma once
// `lizard-agent quotafs` (quotafs.h): the daemon of one sandbox's quota file system. The
// launcher forks it on the host side, before the sandbox joins its cgroups (so a freezer that
// pauses the sandbox never freezes the daemon its processes wait on) and outside the sandbox's
// pid namespace (nothing in the sandbox can see or signal it). The sandbox's setup then mounts
// the file system inside the sandbox's user and mount namespaces (agent/build/quotamount.h) and
// hands over /dev/fuse and the user namespace through `channel`; the daemon joins that
// namespace (it becomes its root: it may give files the sandbox's uids), measures what the
// layer holds, confines itself (quotafsconfinement.h), starts its threads and answers "R".
//
// It serves until the mount is gone (the sandbox's mount namespace ends with its last process:
// the kernel then aborts the connection). PID 1 holds the read end of `lifeline`, whose only
// writer is the daemon: if the daemon dies first, PID 1 ends the sandbox (its upper layers are
// unreachable then; every file operation would fail with ENOTCONN).

#include "agent/quotafs/quotaaccount.h"

namespace lizard::agent::quotafs {

struct QuotaFsDaemonConfig
{
    int backing = -1;  // the sandbox's layer directory (O_PATH), opened on the host side
    int channel = -1;  // SOCK_SEQPACKET to the sandbox's setup
    int lifeline = -1; // write end of the pipe PID 1 watches
    int log = -1;      // the sandbox's agent.log, for the daemon's errors (or -1)
    QuotaLimits limits;
};

// Runs in the forked child; never returns.
[[noreturn]] void runQuotaFsDaemon(const QuotaFsDaemonConfig& config);

// What the setup sends and the daemon answers over the channel (quotamount.cpp).
inline constexpr int kQuotaFsSetupTimeoutMs = 20000;
// Threads serving requests: started before the sandbox runs anything, because every task of the
// daemon counts among the sandbox's (its tasks are bounded per user namespace).
inline constexpr int kQuotaFsThreads = 4;

} // namespace lizard::agent::quotafs
