#pragma once
// The sandboxes' lifecycle around the runtime: create (on the worker pool), deadlines
// (a timer per sandbox destroys it, or pauses it, when its endAt passes), kill, the idle
// policy, and the reconciliation with the runtime when lizard-local starts.

#include "common/result.h"
#include "http/beast.h"
#include "logs/systemlog.h"
#include "runtime/runtime.h"
#include "runtime/sandboxdisks.h"
#include "runtime/volumestorage.h"
#include "sandboxes/allowedhosts.h"
#include "sandboxes/idlewatch.h"
#include "sandboxes/lifecyclepolicy.h"
#include "sandboxes/storagecheck.h"
#include "sandboxes/terminals/terminalhub.h"
#include "sandboxes/warmpool.h"
#include "store/store.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace lizard::sandboxes {

struct CreateSandboxParams
{
    std::string projectId;
    std::string templateName = "base";
    std::string size = "medium";
    runtime::Limits limits;
    int64_t timeoutMs = 0; // 0: no deadline
    std::map<std::string, std::string> metadata;
    std::map<std::string, std::string> envs;
    bool internetAccess = true;
    AllowedHosts allowedHosts; // not empty: internetAccess is false, these stay reachable
    std::string filesFrom;     // a files copy to start with (snapshot id, fork copy); see runtime.h
    std::string volumeId;      // mounted at /workspace (resolved from volumeId/volumeName)
    int diskGb = runtime::SandboxDisks::kDefaultGb; // size of the writable layer
    int shmMb = runtime::kDefaultShmMb;             // size of /dev/shm (MiB)
    bool shmExplicit = false;  // the request gave shmMb (a restore keeps its source's otherwise)
    LifecyclePolicy lifecycle; // what the deadline does, the idle pause
};

class SnapshotService;
class ActivityLog;

class SandboxManager
{
public:
    SandboxManager(store::Store& store, runtime::Runtime& runtime, http::net::io_context& ioc,
                   http::net::thread_pool& workers, int maxRunning);
    ~SandboxManager();

    // Blocking; before serving. Adopts live sandboxes, cleans up dead and expired ones.
    void reconcileAtStartup();

    // `done` runs on a worker thread. LIMIT_EXCEEDED (LimitReached) when maxRunning are running.
    // A create whose shape a warm pool holds claims a copy (warmpool.h); the rest start cold.
    void create(CreateSandboxParams params, std::function<void(Result<store::SandboxPtr>)> done);
    // NotFound if not running. `done` runs on a worker thread once every process of the sandbox
    // got its SIGKILL; the clean-up (exit, mounts, cgroups, files) goes on after it.
    void kill(const std::string& id, const std::string& reason, std::function<void(Status)> done);
    Status setTimeout(const std::string& id, int64_t timeoutMs);

    // A running or paused sandbox whose deadline has not passed, else null.
    store::SandboxPtr running(const std::string& id) const;
    // The sandbox for exec, process and file calls: NOT_FOUND if not alive,
    // SANDBOX_PAUSED (Conflict) while paused (its agent is frozen and could not answer).
    Result<store::SandboxPtr> active(const std::string& id) const;

    // Pause and resume (sandboxmanager_pause.cpp). `done` runs on a worker thread once the sandbox
    // is frozen (thawed). Pausing a paused sandbox, or resuming a running one, changes nothing.
    void pause(const std::string& id, std::function<void(Status)> done);
    void resume(const std::string& id, std::function<void(Status)> done);
    // Lifecycle policies (sandboxmanager_lifecycle.cpp; api/DECISIONS.md, "Lifecycle policies").
    // NotFound if not alive.
    Status setLifecycle(const std::string& id, const LifecyclePolicy& policy);
    // Uses of sandboxes, the idle pauses and waking the sandboxes a policy paused.
    IdleWatch& idle() { return *m_idle; }
    // The idle policy's pause (the sweep marked it under way): done unless the sandbox was
    // used meanwhile.
    void pauseForIdle(const std::string& id);
    // Resumes a sandbox a policy paused, for a call that needs it (IdleWatch::wake); `startedMs`
    // (steady clock) is when that call began to wait. OK without a change when the sandbox runs
    // or the user paused it. `done` runs on a worker thread.
    void resumeOnDemand(const std::string& id, const std::string& trigger, int64_t startedMs,
                        std::function<void(Status)> done);
    // Holds one sandbox's operation lock. It owns the mutex too: a kill drops the sandbox's
    // entry while an operation may still hold it, and the unlock must not touch freed memory.
    class OperationLock
    {
    public:
        explicit OperationLock(std::shared_ptr<std::mutex> m)
            : m_mutex(std::move(m)), m_lock(*m_mutex)
        {
        }

    private:
        std::shared_ptr<std::mutex> m_mutex; // declared first: destroyed after the unlock
        std::unique_lock<std::mutex> m_lock;
    };
    // Serializes pause, resume and file captures of one sandbox (worker threads only).
    OperationLock lockOperations(const std::string& id);
    SnapshotService& snapshots() { return *m_snapshotService; }
    http::net::thread_pool& workers() { return m_workers; }

    int maxRunning() const { return m_maxRunning; }
    // The enforced size of the sandbox's writable layer in GiB, 0 when it is not bounded.
    int diskGb(const std::string& id) const { return m_runtime.diskSizeGb(id); }
    // Processes of the sandbox the OOM killer killed so far, -1 when unknown (no memory cgroup).
    long long oomKills(const runtime::SandboxHandle& handle) const
    {
        return m_runtime.oomKills(handle);
    }
    runtime::DiskState disk(const std::string& id) const { return m_runtime.diskState(id); }
    // Where volumes live (set before serving; sandboxmanager_volumes.cpp).
    void setVolumeStorage(runtime::VolumeStorage* volumes) { m_volumes = volumes; }
    runtime::VolumeStorage* volumeStorage() const { return m_volumes; }
    // The data directory (set before serving), whose free space the calls that write check
    // first: OK, or INSUFFICIENT_STORAGE (storagecheck.h).
    void setDataDir(std::string dir)
    {
        m_dataDir = dir;
        m_logs.setDataDir(std::move(dir));
    }
    // Each sandbox's system log (GET .../logs): lifecycle lines are written here.
    logs::SystemLog& logs() { return m_logs; }
    Status checkStorage(uint64_t needBytes = 0) const
    {
        return sandboxes::checkStorage(m_dataDir, needBytes);
    }
    // What the sandbox changed against its template, the template's (or a snapshot's) version
    // of one file, and the changes as an archive (runtime.h). They read the host's disk: call
    // them on the worker pool (the archive's stream is read on the caller's executor).
    Result<runtime::ChangesListing> changes(const std::string& id, const runtime::ChangesQuery& q)
    {
        return m_runtime.listChanges(id, q);
    }
    Result<std::string> templateFile(bool desktop, const std::string& path, std::size_t max)
    {
        return m_runtime.templateFile(desktop, path, max);
    }
    Result<std::string> layeredFile(const std::string& id, const runtime::ChangesQuery& q,
                                    const std::string& path, std::size_t max)
    {
        return m_runtime.layeredFile(id, q, path, max);
    }
    Result<runtime::ToolStream> changesArchive(const std::string& id,
                                               const runtime::ChangesQuery& q)
    {
        return m_runtime.changesArchive(id, q);
    }
    // Runs `fn` on the worker pool (blocking storage work of the volume routes).
    void runOnWorker(std::function<void()> fn);
    int runningCount() const;
    // Every few seconds, checks that running sandboxes still have their PID 1 (pid and start
    // time; a ping is no proof of death: an agent at its pids limit may not answer). One whose
    // PID 1 is gone twice in a row (killed from outside, OOM...) is marked lost and cleaned up.
    // Each check also renews the lease of every running agent (agent/serve/lease.h): with no word
    // from lizard-local for `orphanGraceMs` (0: never), or past its deadline, a sandbox ends
    // itself. Set before startHealthChecks.
    void startHealthChecks();
    // A hint that the sandbox may have died (its agent's connection broke): its PID 1 is
    // looked at twice within a few hundred ms, and if gone it is marked lost and cleaned up
    // now, not rounds later. A live one is left alone.
    void checkSoon(const std::string& id);
    void setOrphanGrace(int64_t ms) { m_orphanGraceMs = ms; }
    // The activity log (null: not recorded); set before serving.
    void setActivity(ActivityLog* log)
    {
        m_activity = log;
        m_terminals.setActivity(log);
    }
    ActivityLog* activity() const { return m_activity; }
    // The sandboxes' PTY terminals; a sandbox's end ends its terminals (kill).
    TerminalHub& terminals() { return m_terminals; }
    // Records an entry {"kind": kind, ...fields} in the sandbox's activity log (if on).
    void recordActivity(const std::string& id, const std::string& kind,
                        nlohmann::json fields = nlohmann::json::object());
    // Server shutdown: stop the timers (sandboxes keep running and are adopted later) and end
    // the warm copies (they are nobody's yet).
    void shutdown();

    // Warm pools: started after reconcileAtStartup (which destroyed a killed server's copies).
    void startPools(PoolSettings settings);
    WarmPool* pools() { return m_pools.get(); }
    // What a warm copy for `params` is started as. Only a create without a volume or an
    // allow list can be served by one (those are bound at start).
    static WarmShape warmShape(const CreateSandboxParams& params);
    static std::string warmKey(const CreateSandboxParams& params);

private:
    // Reserves the volume for spec.id and prepares its mount (spec.volumeDir...).
    Result<runtime::VolumeMount> attachVolume(const std::string& volumeId,
                                              runtime::SandboxSpec& spec);
    void finishVolume(const std::string& volumeId, const std::string& sandboxId, bool started,
                      const runtime::VolumeMount& mount);

    bool adoptPresent(const store::SandboxRecord& rec); // sandboxmanager_reconcile.cpp
    // A warm copy handed to `spec` (spec.id becomes its id), or nullopt: start cold.
    std::optional<runtime::SandboxHandle> claimWarm(const CreateSandboxParams& params,
                                                    runtime::SandboxSpec& spec);
    // The cold start: volume attached, then the runtime's start.
    Result<runtime::SandboxHandle> startCold(const CreateSandboxParams& params,
                                             runtime::SandboxSpec& spec);
    void armDeadline(const std::string& id, int64_t endAtMs);
    void cancelDeadline(const std::string& id);
    void onDeadline(const std::string& id);
    // onTimeout "pause": the deadline pauses the sandbox (sandboxmanager_lifecycle.cpp).
    void pauseAtDeadline(const std::string& id);
    // Freeze and thaw with the store kept in step; the caller holds the operation lock
    // (sandboxmanager_pause.cpp). A thaw restarts a lifetime its pause at the deadline ended.
    // thawLocked answers the deadline it restarted, 0 for none.
    Status freezeLocked(const store::SandboxRecord& rec, const std::string& by);
    Result<int64_t> thawLocked(const store::SandboxRecord& rec);
    int64_t restartLifetime(const store::SandboxRecord& rec);
    // "; its timeout starts again: N s (ends ...)" after a thaw that restarted it, else "".
    static std::string lifetimeNote(const store::SandboxRecord& rec, int64_t restartedEndAt);
    void scheduleHealthCheck();
    void checkHealth();
    std::chrono::milliseconds healthInterval() const;
    // Sends the sandbox's deadline and the grace period to its agent (worker threads only).
    void renewLease(const store::SandboxRecord& rec);

    store::Store& m_store;
    runtime::Runtime& m_runtime;
    http::net::io_context& m_ioc;
    http::net::thread_pool& m_workers;
    const int m_maxRunning;

    mutable std::mutex m_mutex;
    int m_starting = 0; // creations in flight (count against maxRunning)
    std::map<std::string, std::shared_ptr<http::net::steady_timer>> m_timers;
    bool m_shutdown = false;
    std::shared_ptr<http::net::steady_timer> m_healthTimer;
    std::map<std::string, int> m_healthFailures; // worker pool only
    void checkSoon(const std::string& id, int round);
    std::map<std::string, std::shared_ptr<std::mutex>> m_operationLocks; // under m_mutex
    std::unique_ptr<SnapshotService> m_snapshotService;
    runtime::VolumeStorage* m_volumes = nullptr;
    std::string m_dataDir;
    int64_t m_orphanGraceMs = 0;
    logs::SystemLog m_logs;
    ActivityLog* m_activity = nullptr;
    std::unique_ptr<WarmPool> m_pools;
    TerminalHub m_terminals;
    std::unique_ptr<IdleWatch> m_idle;
};

} // namespace lizard::sandboxes
