#pragma once
// Snapshots and the file copies of forks: the pre-snapshot hook, then the sandbox frozen
// while its writable file system is copied (runtime captureFiles), then thawed. Snapshot files
// live in <dataDir>/files/<snapshot id>; a restore copies them into the new sandbox.

#include "common/result.h"
#include "store/store.h"

#include <boost/asio/any_io_executor.hpp>
#include <functional>
#include <map>
#include <mutex>
#include <string>

namespace lizard::runtime {
class Runtime;
}

namespace lizard::sandboxes {

class SandboxManager;

class SnapshotService
{
public:
    using SnapshotPtr = store::Store::SnapshotPtr;

    SnapshotService(store::Store& store, runtime::Runtime& runtime, SandboxManager& manager);

    // Records the snapshot ("building"), runs the hook (on `ex`), captures the files on a
    // worker thread and records "ready" (or "failed" with the error, also answered to `done`).
    void take(const store::SandboxPtr& source, const std::string& name,
              boost::asio::any_io_executor ex, std::function<void(Result<SnapshotPtr>)> done);
    // Fork: the same capture into a temporary copy; `done` (worker thread) gets its name.
    // The caller drops it with dropFiles once every copy started.
    void captureForFork(const store::SandboxPtr& source, boost::asio::any_io_executor ex,
                        std::function<void(Result<std::string>)> done);
    void dropFiles(const std::string& name);

    // A restore holds the snapshot while it copies the files: NOT_FOUND,
    // SNAPSHOT_NOT_READY (Conflict). Every successful acquire needs one release.
    Result<SnapshotPtr> acquire(const std::string& id);
    void release(const std::string& id);
    // Deletes record and files; SNAPSHOT_BUSY (Conflict) while building or being restored.
    Status remove(const std::string& id);

    // Startup: a snapshot left "building" by a crash is "failed"; copies nobody owns go.
    void reconcileAtStartup();

private:
    // Worker thread: freeze (unless paused), copy, thaw, under the sandbox's operation lock.
    Result<runtime::FilesCopy> captureFrozen(const std::string& sandboxId, const std::string& name);
    void runHookThen(const store::SandboxPtr& source, boost::asio::any_io_executor ex,
                     std::function<void()> next);

    store::Store& m_store;
    runtime::Runtime& m_runtime;
    SandboxManager& m_manager;
    std::mutex m_mutex;
    std::map<std::string, int> m_inUse; // snapshot id → restores copying it
};

} // namespace lizard::sandboxes
