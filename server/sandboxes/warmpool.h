#pragma once
// Warm pools: sandboxes started ahead of time, each exactly as a create of one shape would start
// it (template or snapshot files, limits, network, disk, /dev/shm), with no envs and no deadline.
// A create that asks for that shape claims one (SandboxManager::create) and gets its envs and
// deadline then; any other create starts cold. One thread refills the pools, one copy at a time,
// and only while no create is starting. Copies are not in the store: a restarted lizard-local
// finds them as orphans, destroys them and starts new ones.

#include "common/result.h"
#include "runtime/runtime.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace lizard::sandboxes {

// What a warm copy was started as. A create claims one only when it asks for all of it.
struct WarmShape
{
    std::string templateName;
    std::string filesFrom; // a snapshot's id; empty: the template alone
    runtime::Limits limits;
    bool internetAccess = true;
    int diskGb = 0;
    int shmMb = 0;
    bool operator==(const WarmShape& o) const
    {
        return templateName == o.templateName && filesFrom == o.filesFrom &&
               limits.cpus == o.limits.cpus && limits.memoryMb == o.limits.memoryMb &&
               limits.pidsMax == o.limits.pidsMax && internetAccess == o.internetAccess &&
               diskGb == o.diskGb && shmMb == o.shmMb;
    }
};

// What a pool looks like from outside (the snapshot and template views).
struct PoolState
{
    int target = 0; // copies it keeps (after the host's caps)
    int ready = 0;  // idle copies, each claimable now
    bool paused = false;
    std::string error; // why it has fewer than its target ("" while it fills normally)
};

// A copy out of the pool: its sandbox, and whether `prepare` made it ready for more than a start
// (the interpreter template's pre-started kernel).
struct WarmCopy
{
    runtime::SandboxHandle handle;
    bool prepared = false;
};

struct PoolSettings
{
    int maxCopies = 8;             // idle copies of all pools together
    int64_t minFreeMb = 1024;      // below this much available memory: no refill, copies end
    int64_t leaseGraceMs = 600000; // the copies' orphan grace (SandboxManager::setOrphanGrace)
};

class WarmPool
{
public:
    // `busy` says whether a create is starting (the pool waits for it). `prepare`, when given,
    // runs on each copy just started, before it is ready: it says whether the copy has what it
    // prepares (false: the copy is still ready, as a plain start of its shape).
    using Prepare = std::function<bool(const runtime::SandboxHandle&, const WarmShape&)>;
    WarmPool(runtime::Runtime& runtime, PoolSettings settings, std::function<bool()> busy,
             Prepare prepare = {});
    ~WarmPool();

    // Keys: "template:<name>" or "snapshot:<id>". Sets what a pool keeps; a smaller target ends
    // the surplus idle copies, a new shape all of them.
    void configure(const std::string& key, const WarmShape& shape, int target, bool paused);
    // Ends the pool: its idle copies go, and a copy it is starting is waited for (so that the
    // snapshot's files are no longer read). Blocking; worker threads only.
    void remove(const std::string& key);
    // A ready copy of `shape` from pool `key`, now out of the pool; nullopt if there is none
    // (or the pool has another shape). The caller owns it from here (claim, or destroy).
    std::optional<WarmCopy> take(const std::string& key, const WarmShape& shape);
    PoolState state(const std::string& key) const;
    // Every pool's key with its state.
    std::map<std::string, PoolState> states() const;

    void start();
    // Server shutdown: stops refilling and destroys every idle copy (they are not adoptable).
    void stop();

    static std::string templateKey(const std::string& name) { return "template:" + name; }
    static std::string snapshotKey(const std::string& id) { return "snapshot:" + id; }

private:
    struct Copy
    {
        runtime::SandboxHandle handle;
        int64_t readyAtMs = 0;
        bool prepared = false;
    };
    struct Pool
    {
        WarmShape shape;
        int target = 0;
        bool paused = false;
        bool removed = false;
        bool starting = false;
        std::deque<Copy> idle;
        std::string error;
        int64_t retryAtMs = 0; // after a failed start
    };

    void run();
    // Under m_mutex: the pool to refill next, or null.
    Pool* nextToFill(std::string& key);
    void fillOne(const std::string& key, WarmShape shape);
    void renewLeases();
    // Ends copies (blocking): outside m_mutex.
    void endCopies(std::vector<Copy> copies);
    bool memoryLow(int64_t& availableMb) const;
    int idleTotal() const; // under m_mutex

    runtime::Runtime& m_runtime;
    const PoolSettings m_settings;
    std::function<bool()> m_busy;
    Prepare m_prepare;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::map<std::string, Pool> m_pools;
    std::vector<Copy> m_toEnd; // surplus copies the fill thread ends
    bool m_stop = false;
    std::thread m_thread;
    int64_t m_leasesRenewedAtMs = 0;
    int64_t m_lastTakeMs = 0; // the refill waits for a quiet moment after a take
};

} // namespace lizard::sandboxes
