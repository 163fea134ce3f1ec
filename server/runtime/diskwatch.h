#pragma once
// The disk watch: bounds each sandbox's writable layer where no image can (an ordinary
// user's lizard-local, SandboxDisks::enforced() false; README "Disk").
//
// A thread measures every watched sandbox's <data>/sandboxes/<id> every 2 s with
// `lizard-agent usage` (usagewalk.h: as root of a user namespace with the sandboxes' id map,
// so a 000 directory hides nothing). While the layer is over its size, every 250 ms it measures
// again and sets RLIMIT_FSIZE to 0 (soft and hard, prlimit(2)) on every process of the sandbox but
// PID 1, including those started since the last round, and tells PID 1 (a ping with
// "diskFull"), whose execs then start with it: a write that grows a file then fails
// with EFBIG (SIGXFSZ ends the process unless it ignores it). lizard-local may: it owns the
// sandbox's user namespaces, so it has CAP_SYS_RESOURCE over them. It cannot raise them again
// (a hard limit goes up only with CAP_SYS_RESOURCE in the host's initial namespace): once the
// layer is back under its size (files deleted), new processes write again, while those
// limited keep the limit until they end (a notebook's kernel must be restarted).
//
// Not a quota: between two measures a sandbox writes at disk speed, so the layer may pass its
// size by what it writes in one interval plus one walk (README "Disk" gives the figure).
//
// Inodes count as bytes do: a layer with more files (directories, links and empty files
// included) than an ext4 image of its size would hold (mke2fs' default ratio, one per 16 KiB:
// 65536 per GiB) is over its size too, so that a sandbox cannot use up the host file system's
// inodes. A process already running can still create empty files while over (RLIMIT_FSIZE
// bounds only growth); every file it writes fails.
// LIZARD_DISK_WATCH_MS="<interval>,<interval while over>" overrides the intervals (tests).

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>
#include <thread>

namespace lizard::runtime {

class DiskWatch
{
public:
    // `idMap`: the sandboxes' (IdMapping::toJson), for the measuring namespace.
    DiskWatch(std::string agentPath, std::string sandboxesDir, nlohmann::json idMap);
    ~DiskWatch();
    DiskWatch(const DiskWatch&) = delete;
    DiskWatch& operator=(const DiskWatch&) = delete;

    // Watches sandbox `id` (PID 1 `initPid`, started at `startTime`) with a bound of `gb` GiB.
    void add(const std::string& id, pid_t initPid, unsigned long long startTime, int gb,
             const std::string& socketPath);
    // Stops watching (the sandbox is gone).
    void remove(const std::string& id);

    // Files a layer of `gb` GiB may hold.
    static std::uint64_t inodeBound(int gb) { return std::uint64_t(gb) * kInodesPerGb; }
    static constexpr std::uint64_t kInodesPerGb = (1ull << 30) / (16 << 10);

    struct State
    {
        int gb = 0;              // 0: not watched
        bool over = false;       // the last measure found the layer over its size or inodes
        std::uint64_t bytes = 0; // the last measure
        std::uint64_t files = 0;
        std::uint64_t inodes = 0; // the bound on files
    };
    State state(const std::string& id) const;

private:
    struct Entry
    {
        pid_t initPid = 0;
        unsigned long long startTime = 0;
        std::uint64_t limitBytes = 0;
        std::uint64_t limitInodes = 0;
        int gb = 0;
        bool over = false;
        bool agentTold = false; // the agent knows `over` (its execs start limited)
        std::string socketPath;
        std::uint64_t bytes = 0;
        std::uint64_t files = 0;
        std::chrono::steady_clock::time_point measuredAt{}; // of bytes and files
        int nextMs = 0;                                     // until the next walk (nextInterval)
        std::map<pid_t, unsigned long long> limited; // pid -> start time: RLIMIT_FSIZE set to 0
    };
    void run();
    // One round for one sandbox: measure, then limit or restore. Returns false if the
    // measure failed (the sandbox is probably ending).
    bool round(const std::string& id, Entry& e);
    // Until the next walk: the short interval while over; otherwise half the time the layer,
    // growing as fast as since the last walk, would take to reach its bound, between the short
    // and the normal interval. A writer as fast as the host's disk is then caught close to the
    // bound, while an idle layer is walked no more often than before.
    int nextInterval(const Entry& before, const Entry& after) const;
    void limitAll(Entry& e);
    void restoreAll(Entry& e); // forgets the limited processes (see above)

    std::string m_agentPath;
    std::string m_sandboxesDir;
    nlohmann::json m_idMap;
    int m_intervalMs = 2000;
    int m_overIntervalMs = 250;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::map<std::string, Entry> m_entries;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace lizard::runtime
