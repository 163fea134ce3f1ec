#pragma once
// What a sandbox uses, read on the host: its cgroup's statistics where it has a cgroup of its
// own (v2, v1, or an ordinary user's systemd scope), else /proc of its processes (the
// descendants of its PID 1), and its network namespace's counters (/proc/<PID 1>/net/dev).
// Counters are cumulative; the metrics sampler (sandboxes/metricssampler.h) turns two readings
// into rates. How exact each figure is in each mode: server/api/DECISIONS.md, "Metrics".

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace lizard::runtime {

// Where the statistics of one sandbox's own cgroups are (empty: none of its own).
struct CgroupStatDirs
{
    std::string v2;                    // a v2 cgroup directory (ours, or a systemd scope)
    std::string memory, cpuacct, pids; // v1 hierarchies' directories
    bool any() const { return !v2.empty() || !memory.empty() || !pids.empty(); }
    std::string procsDir() const { return !v2.empty() ? v2 : !memory.empty() ? memory : pids; }
};

// The sandbox's cgroups as its PID 1's /proc/<pid>/cgroup names them, keeping only those whose
// last component names the sandbox (lizard-local/<instance>/<id>, or lizard-<id>.scope): a
// controller the sandbox is not confined by (the host's root cgroup) would count the whole host.
// `mode` is the host's ("v2", "v1" or "none").
CgroupStatDirs findCgroupDirs(pid_t initPid, const std::string& sandboxId, const std::string& mode,
                              const std::string& cgroupRoot = "/sys/fs/cgroup");

// One process as /proc/<pid>/stat tells it.
struct ProcStatEntry
{
    pid_t ppid = 0;
    uint64_t cpuTicks = 0; // utime + stime + cutime + cstime: its own and its reaped children's
    long threads = 0;
};

// Every host process's parent, CPU ticks and threads, from one pass over /proc: how the
// processes of sandboxes without a cgroup are found (PID 1's descendants; an orphan is given to
// PID 1 of its pid namespace, so none escapes the tree).
class ProcSnapshot
{
public:
    void scan();
    // `root` and its descendants (root first); empty when root does not run.
    std::vector<pid_t> tree(pid_t root) const;
    const ProcStatEntry* find(pid_t pid) const;

private:
    std::map<pid_t, ProcStatEntry> m_entries;
    std::multimap<pid_t, pid_t> m_children;
};

std::optional<ProcStatEntry> readProcStatEntry(pid_t pid);

// Cumulative counters and current levels of one sandbox. A figure the host does not give is
// empty.
struct UsageReading
{
    std::optional<double> cpuSeconds;    // CPU time used so far (all its processes, ended ones too)
    std::optional<uint64_t> memoryBytes; // working set: without the file cache
    std::optional<uint64_t> tasks;       // processes and threads (what its pids limit counts)
    std::optional<uint64_t> netRxBytes, netTxBytes;    // its network namespace, loopback excluded
    std::optional<uint64_t> ioReadBytes, ioWriteBytes; // storage I/O (/proc/<pid>/io)
    std::string source;                                // "cgroup" or "proc"
};

// Reads one sandbox. `procs`: the tick's snapshot of /proc, for a sandbox without a cgroup.
// `io` keeps what is needed between readings of the same sandbox (see the .cpp).
struct IoCarry
{
    std::map<pid_t, std::pair<uint64_t, uint64_t>> lastSeen; // direct children of PID 1
    uint64_t goneRead = 0, goneWrite = 0;
};
UsageReading readUsage(pid_t initPid, const CgroupStatDirs& dirs, const ProcSnapshot* procs,
                       IoCarry& io);

// Bytes received and sent on every interface but loopback of `pid`'s network namespace.
std::optional<std::pair<uint64_t, uint64_t>> readNetDev(pid_t pid);

} // namespace lizard::runtime
