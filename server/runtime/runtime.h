#pragma once
// The sandbox runtime: starts, adopts, freezes and destroys real sandboxes (user, pid,
// mount, ipc, uts and net namespaces; overlay root; cgroup limits). Blocking calls: the
// HTTP layer runs them on a worker pool, never on an io thread.

#include "common/result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace lizard::runtime {

// /dev/shm's size when the create does not say: Docker's and Podman's (api/DECISIONS.md).
inline constexpr int kDefaultShmMb = 64;

struct Limits
{
    double cpus = 4;     // medium
    int memoryMb = 8192; // medium
    int pidsMax = 1024;
};

struct SandboxSpec
{
    std::string id;           // "sb_..." chosen by the caller
    std::string templateName; // "base" | "interpreter"
    Limits limits;
    std::map<std::string, std::string> envs; // create-time envs, applied to every exec
    bool internetAccess = true;
    // allowedHosts (agent/build/allowpolicy.h): no internet, only these through slirp4netns (IPv4
    // prefixes on every port, host names on TCP 80/443). internetAccess is ignored then.
    bool allowList = false;
    std::vector<std::string> allowCidrs;
    std::vector<std::string> allowNames;
    // A volume to bind at /workspace (VolumeStorage::prepareAttach); empty: none.
    std::string volumeDir;
    bool volumeInitOwner = false; // first attach: /workspace is given to uid/gid 1000
    // Files to start with: the name of a copy made by captureFiles (a snapshot, or a fork's
    // copy of its source). Empty: the template alone.
    std::string filesFrom;
    // Size of the writable layer (GiB; enforced where capabilities().diskQuota).
    int diskGb = 10;
    // Size of /dev/shm in MiB (a tmpfs, bounded in every mode; agent/build/sandboxroot.h).
    int shmMb = kDefaultShmMb;
    // What the agent enforces by itself when lizard-local is gone (Runtime::renewLease).
    int64_t endAtMs = 0;       // unix ms; 0: no deadline
    int64_t orphanGraceMs = 0; // 0: never
    // At a claim (Runtime::claim) only: a file in the sandbox the agent also writes the envs to,
    // as JSON, for a program started before the claim (a warm copy's pre-started kernel).
    std::string claimEnvsFile;
};

// What the runtime needs to find a sandbox again, also after a server restart (stored in SQLite).
// What GET /api/sandboxes/{id}/changes asks of the runtime.
struct ChangesQuery
{
    bool desktop = false;             // the desktop template's /usr/local is the lower layer
    std::vector<std::string> exclude; // fnmatch patterns (agent/tools/changeswalk.h)
    std::size_t limit = 200000;
    // Not empty: the files copy of that name (a snapshot's, lizard-local's files/<name>) is
    // listed, against the same template, instead of the sandbox's own files.
    std::string filesCopy;
};

struct ChangesListing
{
    bool truncated = false; // more than the query's limit
    std::size_t count = 0;
    std::string changesJson; // the JSON array of the API's objects (agent/tools/changeswalk.h)
};

// A process writing a download (an archive of a sandbox's changes) on `fd`: the caller reads
// it to the end, then reaps `pid`, whose exit status 0 says the stream is whole; killing it
// stops the stream early. Both are the caller's.
struct ToolStream
{
    pid_t pid = -1;
    int fd = -1;
};

struct SandboxHandle
{
    std::string id;
    pid_t initPid = 0;                    // host pid of the agent (PID 1 in the sandbox)
    unsigned long long initStartTime = 0; // /proc/<pid>/stat field 22, guards against pid reuse
    std::string socketPath;               // agent socket, host side
    bool limitsEnforced = false;          // cgroup limits really applied
    // The kernel's own bounds, with or without cgroups: all tasks of the sandbox <= pidsMax
    // (RLIMIT_NPROC of a nested user namespace) and RLIMIT_DATA <= memoryMb per process.
    bool rlimitsApplied = false;
    bool internetAccess = false; // really has a network route out
};

// What this host allows; computed once at startup, logged, and shown by the app.
struct Capabilities
{
    bool sandboxes = false;     // user namespaces usable
    std::string sandboxesCode;  // why not, as the API's 503 code (runtime/hostprobe.h)
    std::string sandboxesError; // why not, with the fix (sysctl, AppArmor profile...)
    std::string cgroupMode;     // "v2", "v1" or "none"
    bool limits = false;        // cpu/memory/pids limits can be set
    std::string limitsNote;     // why not, when limits == false
    bool fullUidRange = false;  // 65536 uids mapped (so `user` really is another uid)
    bool network = false;       // internetAccess:true can be honoured (slirp4netns)
    std::string networkNote;    // why not, with the fix, when network == false
    bool interpreterTemplate = false;
    std::string interpreterMissing; // missing host packages for the interpreter template
    std::string freezer;            // how pause works: "cgroup-v2", "cgroup-v1" or "signals"
    bool diskQuota = false; // each sandbox's writable layer is bounded (SandboxSpec::diskGb)
    // How: "image" (an ext4 image per sandbox, as root), "quota" (a FUSE file system per sandbox,
    // agent/quotafs) or "watch" (measured after the fact, diskwatch.h).
    std::string diskBound;
    std::string diskQuotaNote; // why no image (and, when diskBound is "watch", why no quota)
};

// How a sandbox's writable layer is bounded (Runtime::diskState).
struct DiskState
{
    int gb = 0; // its size in GiB; 0 when nothing bounds it
    // "image" (an ext4 image: ENOSPC), "quota" (the quota file system: ENOSPC) or "watch"
    // (diskwatch.h: EFBIG)
    std::string enforcedBy;
    bool over = false;        // watch: the layer is over its size and its files may not grow
    std::uint64_t inodes = 0; // the bound on its files (ext4's ratio for the image's size)
};

// What captureFiles copied.
struct FilesCopy
{
    std::string dir;                  // absolute path of the copy
    unsigned long long bytes = 0;     // bytes of file data
    unsigned long long reflinked = 0; // files whose data is shared (FICLONE), not copied
};

class Runtime
{
public:
    // Prepares <dataDir>/templates, <dataDir>/sandboxes, <dataDir>/run and probes the host.
    // With `keeper` (the server that holds the data directory's lock, once), it first starts
    // the process that releases, should this server be killed, what the host holds for its
    // sandboxes once they end (agent/tools/keeper.h): before the first disk of the pool is
    // mounted, so a server killed while it starts leaves nothing mounted either.
    static Result<std::unique_ptr<Runtime>> create(const std::string& dataDir, bool keeper = false);
    virtual ~Runtime() = default;

    virtual const Capabilities& capabilities() const = 0;
    // Removes the templates this runtime built, files of sandbox uids included, for a data
    // directory thrown away afterwards (`lizard-local doctor`'s).
    virtual void removeTemplates() = 0;

    // Starts a sandbox and returns once its agent answers ping. Errors:
    // SANDBOX_RUNTIME_UNAVAILABLE (Unavailable: no user namespaces), INVALID_TEMPLATE
    // (InvalidArgument), Internal ...
    virtual Result<SandboxHandle> start(const SandboxSpec& spec) = 0;

    // True if the sandbox's agent process still runs (pid + start time match) and answers.
    virtual bool isAlive(const SandboxHandle& handle) = 0;

    // Sends SIGKILL to every process of the sandbox (its PID 1, whose exit kills the rest of
    // its namespace, and each process its cgroups hold) and returns without waiting for them;
    // destroy() finishes the job.
    virtual void end(const SandboxHandle& handle) = 0;
    // Kills every process of the sandbox, waits until they are gone, and removes its mounts,
    // cgroups and files. Safe to call for a sandbox that is already dead or half-created.
    virtual void destroy(const SandboxHandle& handle) = 0;

    // Removes leftovers of sandboxes the store does not know (dirs, cgroups, sockets).
    virtual void cleanupOrphans(const std::vector<std::string>& knownIds) = 0;
    // Whether create() started the keeper it was asked for (an error says why not).
    virtual Status keeperStatus() const { return okStatus(); }

    // Pause: freezes every process of the sandbox, memory kept (cgroup freezer, v2 or v1;
    // SIGSTOP of the whole process tree where the sandbox has no freezer). Returns once frozen.
    virtual Status freeze(const SandboxHandle& handle) = 0;
    virtual Status thaw(const SandboxHandle& handle) = 0;
    virtual bool isFrozen(const SandboxHandle& handle) = 0;
    // The agent process still runs (pid + start time), without asking it: a frozen agent
    // cannot answer a ping.
    virtual bool isPresent(const SandboxHandle& handle) = 0;
    // Tells the agent that lizard-local is still there, and the sandbox's deadline (unix ms,
    // 0: none): the agent ends its sandbox at that deadline, or `graceMs` after the last
    // renewal, when lizard-local is gone (`graceMs` 0: never). False if it did not answer.
    virtual bool renewLease(const SandboxHandle& handle, int64_t endAtMs, int64_t graceMs) = 0;
    // Hands a warm copy (started with no envs and no deadline) to the create `spec`: its envs
    // and lease (endAtMs, orphanGraceMs), in one call to the agent. False if it did not answer.
    virtual bool claim(const SandboxHandle& handle, const SandboxSpec& spec) = 0;

    // Copies the sandbox's writable layers (its whole writable file system) into
    // <dataDir>/files/<name>. The caller freezes the sandbox around it for a consistent copy.
    virtual Result<FilesCopy> captureFiles(const SandboxHandle& handle,
                                           const std::string& name) = 0;
    // Removes <dataDir>/files/<name>. Idempotent.
    virtual void removeFiles(const std::string& name) = 0;
    // Names of the directories under <dataDir>/files (for cleanup of unknown ones).
    virtual std::vector<std::string> filesNames() = 0;

    // Processes of the sandbox the OOM killer killed so far; -1 when the runtime cannot tell.
    virtual long long oomKills(const SandboxHandle& /*handle*/) { return -1; }
    // The enforced size of the sandbox's writable layer in GiB; 0 when it is not bounded.
    virtual int diskSizeGb(const std::string& id) { return diskState(id).gb; }
    virtual DiskState diskState(const std::string& /*id*/) { return {}; }
    // A running sandbox found again after a restart of lizard-local (its disk is watched
    // again where that is how it is bounded).
    virtual void adopt(const SandboxHandle& /*handle*/) {}
    // Bytes the sandbox's writable layer holds now (its image's or quota file system's used
    // blocks, or the disk watch's last measure); empty when nothing measures it
    // (linuxruntime_usage.cpp).
    virtual std::optional<std::uint64_t> diskUsedBytes(const SandboxHandle& /*handle*/)
    {
        return std::nullopt;
    }
    // What the sandbox added, modified and deleted against its template
    // (linuxruntime_changes.cpp). Works while the sandbox's files are on the host (running or
    // paused).
    virtual Result<ChangesListing> listChanges(const std::string& /*id*/,
                                               const ChangesQuery& /*query*/)
    {
        return Error{ErrorKind::NotImplemented, "NOT_IMPLEMENTED", "no changes here"};
    }
    // `path` (a regular file of at most `maxBytes`) as the files of `query` show it: a
    // snapshot's files copy (query.filesCopy) over the template.
    virtual Result<std::string> layeredFile(const std::string& /*id*/,
                                            const ChangesQuery& /*query*/,
                                            const std::string& /*path*/, std::size_t /*maxBytes*/)
    {
        return Error{ErrorKind::NotImplemented, "NOT_IMPLEMENTED", "no layered files here"};
    }
    // The sandbox's changes against its template as a tar stream (an image layer: deletions
    // as ".wh." files), after the exclusions of `query`.
    virtual Result<ToolStream> changesArchive(const std::string& /*id*/,
                                              const ChangesQuery& /*query*/)
    {
        return Error{ErrorKind::NotImplemented, "NOT_IMPLEMENTED", "no archives here"};
    }
    // The template's own version of `path` (a regular file of at most `maxBytes`), as the
    // sandbox saw it before it changed anything.
    virtual Result<std::string> templateFile(bool /*desktop*/, const std::string& /*path*/,
                                             std::size_t /*maxBytes*/)
    {
        return Error{ErrorKind::NotImplemented, "NOT_IMPLEMENTED", "no template files here"};
    }
};

} // namespace lizard::runtime
