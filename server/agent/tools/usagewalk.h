#pragma once
// `lizard-agent usage`: measures a sandbox's writable layer for the disk watch of an ordinary
// user's lizard-local (runtime/diskwatch.h). The layer's files belong to the sandbox's uids,
// and a sandbox may chmod 000 a directory to hide what is below it from the host user; so the
// walk runs inside the sandbox's user namespace (setns on /proc/<pid>/ns/user: the host user
// owns it), where it has CAP_DAC_READ_SEARCH over every file the sandbox owns.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace lizard::agent {

struct UsageTotals
{
    std::uint64_t bytes = 0; // allocated bytes (st_blocks * 512), hard links once
    std::uint64_t files = 0; // inodes seen, directories included
    bool partial = false;    // cut by the time bound or the depth bound: bytes is a lower bound
};

// Sums the tree under the directory `dirFd` (O_PATH is enough) without following symbolic
// links or crossing to other devices; stops after `timeoutMs` (partial).
UsageTotals measureTree(int dirFd, int timeoutMs);

} // namespace lizard::agent
