#pragma once
// The Runtime on Linux namespaces (see runtime.h and the runtime brief).

#include "runtime/cgroupmanager.h"
#include "runtime/diskwatch.h"
#include "runtime/idmapping.h"
#include "runtime/quotadisks.h"
#include "runtime/runtime.h"
#include "runtime/sandboxdisks.h"
#include "runtime/systemdscope.h"

#include <memory>
#include <mutex>
#include <string>

namespace lizard::runtime {

class LinuxRuntime final : public Runtime
{
public:
    static Result<std::unique_ptr<Runtime>> create(const std::string& dataDir, bool keeper);
    ~LinuxRuntime() override { m_cgroups.removeInstanceIfEmpty(); }

    const Capabilities& capabilities() const override { return m_caps; }
    void removeTemplates() override;
    Result<SandboxHandle> start(const SandboxSpec& spec) override;
    bool isAlive(const SandboxHandle& handle) override;
    void destroy(const SandboxHandle& handle) override;
    void cleanupOrphans(const std::vector<std::string>& knownIds) override;
    Status keeperStatus() const override { return m_keeper; }
    Status freeze(const SandboxHandle& handle) override;
    Status thaw(const SandboxHandle& handle) override;
    bool isFrozen(const SandboxHandle& handle) override;
    bool isPresent(const SandboxHandle& handle) override;
    void end(const SandboxHandle& handle) override;
    bool renewLease(const SandboxHandle& handle, int64_t endAtMs, int64_t graceMs) override;
    bool claim(const SandboxHandle& handle, const SandboxSpec& spec) override;
    Result<FilesCopy> captureFiles(const SandboxHandle& handle, const std::string& name) override;
    void removeFiles(const std::string& name) override;
    std::vector<std::string> filesNames() override;
    DiskState diskState(const std::string& id) override;
    void adopt(const SandboxHandle& handle) override;
    std::optional<std::uint64_t> diskUsedBytes(const SandboxHandle& handle) override;
    Result<ChangesListing> listChanges(const std::string& id, const ChangesQuery& query) override;
    Result<std::string> layeredFile(const std::string& id, const ChangesQuery& query,
                                    const std::string& path, std::size_t maxBytes) override;
    Result<ToolStream> changesArchive(const std::string& id, const ChangesQuery& query) override;
    Result<std::string> templateFile(bool desktop, const std::string& path,
                                     std::size_t maxBytes) override;
    long long oomKills(const SandboxHandle& handle) override
    {
        return m_cgroups.oomKills(handle.id);
    }

private:
    // The agent's `changes` configuration over a sandbox's (or a files copy's) layers.
    Result<nlohmann::json> changesConfig(const std::string& id, const ChangesQuery& query);
    explicit LinuxRuntime(std::string dataDir);
    Status prepareDirs();
    Status ensureTemplate();
    // The overlay layers' directories of a sandbox's own directory (its disk, where it has one).
    static constexpr const char* kSandboxSubdirs[] = {
        "upper", "work", "merged", "usr-upper", "usr-work", "local-upper", "local-work"};
    Status makeSandboxDirs(const std::string& id, int diskGb);
    void removeSandboxDir(const std::string& id);
    void removeTree(const std::string& parent, const std::string& name);
    Status makeOwnedDir(const std::string& path, mode_t mode);
    // Copies the writable layers (upper, local-upper) of `fromDir` into `toDir`'s.
    Result<FilesCopy> copyLayers(const std::string& fromDir, const std::string& toDir);
    // The highest pid the source of copy `name` had in use (0: unknown or not recorded).
    int copiedLastPid(const std::string& name);
    // Starts watching the sandbox's layer where no image bounds it (diskwatch.h).
    void watchDisk(const SandboxHandle& handle, int gb);
    std::string sandboxDir(const std::string& id) const { return m_dataDir + "/sandboxes/" + id; }
    std::string socketPath(const std::string& id) const
    {
        return m_dataDir + "/run/" + id + ".sock";
    }
    std::string templateDir() const;
    std::string filesDir(const std::string& name) const { return m_dataDir + "/files/" + name; }

    std::string m_dataDir;
    std::string m_agentPath;
    std::string m_slirp;
    // The sandbox's seccomp filter as hex BPF, without and with diskWatched, exported by the
    // agent once (agent/build/seccompfilter.h); empty: each PID 1 builds its own.
    std::string m_seccomp[2];
    Status m_keeper = okStatus();
    IdMapping m_ids;
    CgroupManager m_cgroups;
    SystemdScope m_scope; // an ordinary user's limits when no cgroup is writable
    std::unique_ptr<SandboxDisks> m_disks;
    // Where no image bounds a disk: the quota file system where FUSE is usable, the watch for
    // the rest (and for a sandbox adopted from a server that watched it).
    std::unique_ptr<QuotaDisks> m_quota;
    std::unique_ptr<DiskWatch> m_watch; // only where !m_disks->enforced()
    Capabilities m_caps;
    std::string m_desktopMissing; // host packages the desktop template lacks (empty: none)
};

// Sandbox ids become directory and cgroup names: letters, digits, '_' and '-' only.
bool validSandboxId(const std::string& id);

} // namespace lizard::runtime
