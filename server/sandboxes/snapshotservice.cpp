#include "sandboxes/snapshotservice.h"

#include "common/crypto.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "runtime/runtime.h"
#include "sandboxes/presnapshothook.h"
#include "sandboxes/sandboxmanager.h"

#include <set>

namespace lizard::sandboxes {

namespace net = http::net;

SnapshotService::SnapshotService(store::Store& store, runtime::Runtime& runtime,
                                 SandboxManager& manager)
    : m_store(store), m_runtime(runtime), m_manager(manager)
{
}

Result<runtime::FilesCopy> SnapshotService::captureFrozen(const std::string& sandboxId,
                                                          const std::string& name)
{
    auto ops = m_manager.lockOperations(sandboxId);
    const auto rec = m_manager.running(sandboxId);
    if (!rec)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + sandboxId + " not found"};
    const bool freeze = !rec->paused(); // a paused sandbox is frozen already
    if (freeze) {
        if (Status s = m_runtime.freeze(rec->handle); !s)
            return s.error();
    }
    auto copied = m_runtime.captureFiles(rec->handle, name);
    // A kill marks the sandbox stopped before it removes its files: still alive now means the
    // copy saw all of them. Killed meanwhile, it is thawed all the same: a frozen (v1) task
    // never gets to die.
    if (!m_manager.running(sandboxId)) {
        if (freeze)
            m_runtime.thaw(rec->handle);
        if (copied)
            m_runtime.removeFiles(name);
        return Error{ErrorKind::Conflict, "SANDBOX_GONE",
                     "sandbox " + sandboxId + " was killed while its files were copied"};
    }
    if (freeze) {
        if (Status s = m_runtime.thaw(rec->handle); !s) {
            log::warn("sandbox " + sandboxId +
                      ": thaw after copying its files failed: " + s.error().message);
            m_store.setPauseError(sandboxId, s.error().message);
        }
    }
    return copied;
}

void SnapshotService::runHookThen(const store::SandboxPtr& source, boost::asio::any_io_executor ex,
                                  std::function<void()> next)
{
    if (source->paused())
        return next(); // its agent is frozen: the files are as the pause left them
    runPreSnapshotHook(ex, source->id, source->handle.socketPath, std::move(next));
}

void SnapshotService::take(const store::SandboxPtr& source, const std::string& name,
                           boost::asio::any_io_executor ex,
                           std::function<void(Result<SnapshotPtr>)> done)
{
    store::SnapshotRecord r;
    r.id = "snap_" + randomLowerAlnum(16);
    r.name = name;
    r.projectId = source->projectId;
    r.sourceSandboxId = source->id;
    r.templateName = source->templateName;
    r.size = source->size;
    r.cpus = source->cpus;
    r.memoryMb = source->memoryMb;
    r.envs = source->envs;
    r.internetAccess = source->internetAccess;
    r.diskGb = m_manager.diskGb(source->id);
    r.shmMb = source->shmMb;
    r.status = "building";
    r.createdAtMs = nowMs();
    if (Status s = m_store.insertSnapshot(r); !s) {
        net::post(m_manager.workers(), [done = std::move(done), s] { done(s.error()); });
        return;
    }
    runHookThen(source, ex, [this, r, done = std::move(done)]() mutable {
        net::post(m_manager.workers(), [this, r, done = std::move(done)]() mutable {
            const int64_t started = nowMs();
            auto copied = captureFrozen(r.sourceSandboxId, r.id);
            if (copied) {
                r.status = "ready";
                r.sizeBytes = int64_t(copied->bytes);
                log::info("snapshot " + r.id + " of " + r.sourceSandboxId + ": " +
                          std::to_string(copied->bytes) + " bytes in " +
                          std::to_string(nowMs() - started) + " ms");
            } else {
                r.status = "failed";
                r.error = copied.error().message;
                log::warn("snapshot " + r.id + " of " + r.sourceSandboxId + " failed: " + r.error);
            }
            if (Status s = m_store.updateSnapshot(r); !s)
                return done(s.error());
            if (!copied) {
                const bool gone = copied.error().kind == ErrorKind::NotFound;
                return done(Error{gone ? ErrorKind::NotFound : ErrorKind::Internal,
                                  gone ? "NOT_FOUND" : "SNAPSHOT_FAILED",
                                  "snapshot " + r.id + " failed: " + r.error});
            }
            done(m_store.snapshot(r.id));
        });
    });
}

void SnapshotService::captureForFork(const store::SandboxPtr& source,
                                     boost::asio::any_io_executor ex,
                                     std::function<void(Result<std::string>)> done)
{
    const std::string sourceId = source->id;
    runHookThen(source, ex, [this, sourceId, done = std::move(done)]() mutable {
        net::post(m_manager.workers(), [this, sourceId, done = std::move(done)] {
            const std::string name = "fork_" + randomLowerAlnum(16);
            auto copied = captureFrozen(sourceId, name);
            if (!copied)
                return done(copied.error());
            done(name);
        });
    });
}

void SnapshotService::dropFiles(const std::string& name)
{
    net::post(m_manager.workers(), [this, name] { m_runtime.removeFiles(name); });
}

Result<SnapshotService::SnapshotPtr> SnapshotService::acquire(const std::string& id)
{
    std::lock_guard lock(m_mutex);
    auto snap = m_store.snapshot(id);
    if (!snap)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "snapshot " + id + " not found"};
    if (snap->status != "ready")
        return Error{ErrorKind::Conflict, "SNAPSHOT_NOT_READY",
                     "snapshot " + id + " is " + snap->status +
                         (snap->error.empty() ? std::string() : ": " + snap->error)};
    ++m_inUse[id];
    return snap;
}

void SnapshotService::release(const std::string& id)
{
    std::lock_guard lock(m_mutex);
    if (const auto it = m_inUse.find(id); it != m_inUse.end() && --it->second <= 0)
        m_inUse.erase(it);
}

Status SnapshotService::remove(const std::string& id)
{
    std::lock_guard lock(m_mutex);
    const auto snap = m_store.snapshot(id);
    if (!snap)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "snapshot " + id + " not found"};
    if (snap->status == "building")
        return Error{ErrorKind::Conflict, "SNAPSHOT_BUSY",
                     "snapshot " + id + " is still being taken"};
    if (m_inUse.count(id))
        return Error{ErrorKind::Conflict, "SNAPSHOT_BUSY",
                     "snapshot " + id + " is being restored right now"};
    if (Status s = m_store.removeSnapshot(id); !s)
        return s;
    dropFiles(id); // off the caller's (io) thread
    return okStatus();
}

void SnapshotService::reconcileAtStartup()
{
    std::set<std::string> owned;
    for (const auto& snap : m_store.snapshots()) {
        if (snap->status == "building") {
            store::SnapshotRecord r = *snap;
            r.status = "failed";
            r.error = "lizard-local stopped while the snapshot was taken";
            m_store.updateSnapshot(r);
        }
        if (snap->status != "building")
            owned.insert(snap->id);
    }
    for (const auto& name : m_runtime.filesNames()) {
        if (!owned.count(name)) {
            log::info("removing file copy " + name + " (no snapshot owns it)");
            m_runtime.removeFiles(name);
        }
    }
}

} // namespace lizard::sandboxes
