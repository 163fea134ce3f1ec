// start, isAlive, destroy and orphan cleanup of LinuxRuntime.
#include "agent/tools/treeremover.h"
#include "runtime/agentping.h"
#include "runtime/agenttool.h"
#include "runtime/linuxruntime.h"
#include "runtime/procinfo.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace lizard::runtime {

namespace {

// The create-time envs the agent applies to every exec. The SDK runs xdotool, scrot and chromium
// as plain execs: in a desktop they find the display here.
std::map<std::string, std::string> agentEnvs(const SandboxSpec& spec)
{
    auto envs = spec.envs;
    if (spec.templateName == "desktop")
        envs.emplace("DISPLAY", ":1");
    return envs;
}

void killAndWait(pid_t pid, unsigned long long startTime)
{
    if (!processRemains(pid, startTime))
        return;
    ::kill(pid, SIGKILL);
    for (int i = 0; i < 1000 && processRemains(pid, startTime); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

std::vector<std::string> dirNames(const std::string& path, const std::string& suffix)
{
    std::vector<std::string> names;
    if (DIR* dir = ::opendir(path.c_str())) {
        while (dirent* e = ::readdir(dir)) {
            std::string name = e->d_name;
            if (name == "." || name == ".." || name.size() <= suffix.size())
                continue;
            if (name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
                names.push_back(name.substr(0, name.size() - suffix.size()));
        }
        ::closedir(dir);
    }
    return names;
}

} // namespace

Status LinuxRuntime::makeSandboxDirs(const std::string& id, int diskGb)
{
    const std::string dir = sandboxDir(id);
    if (::mkdir(dir.c_str(), 0700) != 0)
        return Error{errno == EEXIST ? ErrorKind::Conflict : ErrorKind::Internal,
                     errno == EEXIST ? "CONFLICT" : "INTERNAL", dir + ": " + std::strerror(errno)};
    // The layers below, the agent's log and pid file all live on the sandbox's own disk, which
    // comes with the directories (made ahead for a pooled one: seven mkdirs and eight chowns
    // on a fresh ext4 took 1.7 ms of every create).
    if (auto s = m_disks->attach(id, diskGb, dir); !s || m_disks->enforced())
        return s;
    std::vector<std::string> paths{dir};
    for (const char* sub : kSandboxSubdirs)
        paths.push_back(dir + "/" + sub);
    for (const auto& p : paths) {
        if (p != dir && ::mkdir(p.c_str(), 0755) != 0)
            return Error{ErrorKind::Internal, "INTERNAL", p + ": " + std::strerror(errno)};
        // The sandbox's root (host uid R) owns what it writes and must traverse its dir.
        if (::getuid() == 0 && ::chown(p.c_str(), m_ids.hostRoot, m_ids.hostRootGid) != 0)
            return Error{ErrorKind::Internal, "INTERNAL",
                         "chown " + p + ": " + std::strerror(errno)};
    }
    return okStatus();
}

void LinuxRuntime::removeSandboxDir(const std::string& id)
{
    // Unmounting drops the whole layer at once; what is left is the empty mount point.
    m_disks->release(id, sandboxDir(id));
    removeTree(m_dataDir + "/sandboxes", id);
}

void LinuxRuntime::removeTemplates()
{
    const std::string templates = m_dataDir + "/templates";
    std::error_code ec;
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(templates, ec))
        names.push_back(entry.path().filename().string());
    for (const std::string& name : names)
        removeTree(templates, name);
}

void LinuxRuntime::removeTree(const std::string& parentDir, const std::string& name)
{
    const std::string dir = parentDir + "/" + name;
    if (::access(dir.c_str(), F_OK) != 0)
        return;
    if (m_ids.kind == "subid") // files of sandbox uids are the subordinate range's: remove inside
        runAgentTool(m_agentPath, "remove",
                     {{"mode", "remove"}, {"idMap", m_ids.toJson()}, {"target", dir}}, 120000);
    int parent = ::open(parentDir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (parent >= 0) {
        agent::removeTreeAt(parent, name);
        ::close(parent);
    }
}

Result<SandboxHandle> LinuxRuntime::start(const SandboxSpec& spec)
{
    if (!m_caps.sandboxes)
        return Error{ErrorKind::Unavailable,
                     m_caps.sandboxesCode.empty() ? "SANDBOX_RUNTIME_UNAVAILABLE"
                                                  : m_caps.sandboxesCode,
                     m_caps.sandboxesError};
    const bool desktop = spec.templateName == "desktop";
    if (spec.templateName != "base" && spec.templateName != "interpreter" && !desktop)
        return Error{ErrorKind::InvalidArgument, "INVALID_TEMPLATE",
                     "unknown template: " + spec.templateName + " (base, interpreter, desktop)"};
    if (spec.templateName == "interpreter" && !m_caps.interpreterTemplate)
        return Error{ErrorKind::Unavailable, "TEMPLATE_UNAVAILABLE",
                     "the interpreter template needs these host packages: " +
                         m_caps.interpreterMissing};
    if (desktop && !m_desktopMissing.empty())
        return Error{ErrorKind::Unavailable, "TEMPLATE_UNAVAILABLE",
                     "the desktop template needs these host packages: " + m_desktopMissing};
    if (!validSandboxId(spec.id))
        return Error{ErrorKind::InvalidArgument, "INVALID_ARGUMENT",
                     "invalid sandbox id: " + spec.id};
    // Without slirp4netns nothing of the list could be reached; say so rather than start a
    // sandbox that silently has none of what was asked.
    if (spec.allowList && !m_caps.network)
        return Error{ErrorKind::Unavailable, "NETWORK_UNAVAILABLE",
                     "allowedHosts needs a sandbox network, which this host cannot give: " +
                         m_caps.networkNote};
    if (spec.limits.cpus <= 0 || spec.limits.memoryMb <= 0 || spec.limits.pidsMax <= 0)
        return Error{ErrorKind::InvalidArgument, "INVALID_ARGUMENT", "limits must be positive"};

    SandboxHandle handle;
    handle.id = spec.id;
    handle.socketPath = socketPath(spec.id);
    if (auto s = makeSandboxDirs(spec.id, spec.diskGb); !s) {
        if (s.error().kind != ErrorKind::Conflict)
            removeSandboxDir(spec.id);
        return s.error();
    }
    // Where no image bounds the layer: its own quota file system if this host allows one.
    const bool quota = !m_disks->enforced() && m_quota && m_quota->usable();
    if (!spec.filesFrom.empty()) {
        auto copied = validSandboxId(spec.filesFrom)
                          ? copyLayers(filesDir(spec.filesFrom), sandboxDir(spec.id))
                          : Result<FilesCopy>(Error{ErrorKind::InvalidArgument, "INVALID_ARGUMENT",
                                                    "invalid files name: " + spec.filesFrom});
        if (!copied) {
            removeSandboxDir(spec.id);
            return copied.error();
        }
        // The copy went in beside the quota file system (it starts with the sandbox): what
        // was copied must fit its disk, as it must fit an image.
        if (quota && copied->bytes > std::uint64_t(QuotaDisks::bytesOf(spec.diskGb))) {
            removeSandboxDir(spec.id);
            return Error{ErrorKind::Internal, "COPY_FAILED",
                         "copying the sandbox's files failed: " + std::to_string(copied->bytes) +
                             " bytes do not fit a disk of " + std::to_string(spec.diskGb) +
                             " GiB: " + std::strerror(ENOSPC)};
        }
    }
    SandboxCgroups cgroups = m_cgroups.create(spec.id, spec.limits);
    // No cgroup of our own: the systemd user manager's scope, where there is one.
    const bool scoped = !cgroups.limitsApplied && m_scope.usable();
    handle.limitsEnforced = cgroups.limitsApplied;
    const bool watched = !m_disks->enforced() && !quota; // by the disk watch alone

    nlohmann::json config{
        {"mode", "sandbox"},
        {"idMap", m_ids.toJson()},
        {"id", spec.id},
        {"socketPath", handle.socketPath},
        {"templateRoot", templateDir() + "/root"},
        {"templateUsrDirs", templateDir() + "/usr-dirs"},
        {"templateUsrLocal", templateDir() + (desktop ? "/usr-local-desktop" : "/usr-local")},
        {"sandboxDir", sandboxDir(spec.id)},
        {"cgroupProcs", cgroups.procsFiles},
        {"workloadCgroupProcs", cgroups.workloadProcsFile},
        {"envs", agentEnvs(spec)},
        {"slirp", spec.internetAccess || spec.allowList ? m_slirp : std::string()},
        {"rlimits", {{"pids", spec.limits.pidsMax}, {"memoryMb", spec.limits.memoryMb}}},
        {"lease", {{"endAtMs", spec.endAtMs}, {"graceMs", spec.orphanGraceMs}}},
        {"diskWatched", watched},
        {"seccompProgram", m_seccomp[watched ? 1 : 0]},
        {"shmMb", spec.shmMb},
        {"pidFloor", spec.filesFrom.empty() ? 0 : copiedLastPid(spec.filesFrom)}};
    if (spec.allowList) {
        // Test only: tests serve their own names (server/runtime/README.md, "allowedHosts").
        const char* upstream = std::getenv("LIZARD_TEST_DNS_UPSTREAM");
        config["allowList"] = {{"cidrs", spec.allowCidrs},
                               {"names", spec.allowNames},
                               {"dnsUpstream", upstream ? upstream : ""}};
    }
    if (quota)
        config["diskQuota"] = QuotaDisks::launchConfig(spec.diskGb);
    if (!spec.volumeDir.empty()) {
        config["volumeDir"] = spec.volumeDir;
        config["volumeInitOwner"] = spec.volumeInitOwner;
    }
    auto launched =
        runAgentTool(m_agentPath, "init", config, 30000,
                     scoped ? m_scope.prefix(spec.id, spec.limits) : std::vector<std::string>());
    if (!launched) {
        destroy(handle);
        return launched.error();
    }
    handle.initPid = launched->value("pid", 0);
    handle.rlimitsApplied = true; // the launcher fails rather than start a sandbox without them
    // With a systemd scope, reported only if the scope's cgroup really has the limits.
    if (scoped)
        handle.limitsEnforced = SystemdScope::enforced(handle.initPid, spec.limits);
    // An allow list goes through slirp4netns too, but that is not internet access.
    handle.internetAccess = launched->value("network", false) && !spec.allowList;
    if (auto st = readProcStat(handle.initPid))
        handle.initStartTime = st->startTime;
    std::ofstream(sandboxDir(spec.id) + "/init.pid")
        << handle.initPid << " " << handle.initStartTime << "\n";
    if (quota)
        m_quota->started(spec.id, spec.diskGb, launched->value("quotaPid", 0));
    if (!pingAgent(handle.socketPath, 5000)) {
        destroy(handle);
        return Error{ErrorKind::Internal, "SANDBOX_START_FAILED",
                     "the sandbox agent did not answer"};
    }
    if (!quota)
        watchDisk(handle, spec.diskGb);
    return handle;
}

void LinuxRuntime::watchDisk(const SandboxHandle& handle, int gb)
{
    if (!m_watch)
        return;
    // Kept next to init.pid so that a restarted lizard-local watches it with the same size.
    std::ofstream(sandboxDir(handle.id) + "/disk-watch.gb") << gb << "\n";
    m_watch->add(handle.id, handle.initPid, handle.initStartTime, gb, handle.socketPath);
}

void LinuxRuntime::adopt(const SandboxHandle& handle)
{
    if (!m_watch || !validSandboxId(handle.id))
        return;
    if (m_quota && m_quota->adopt(handle.id))
        return; // its daemon outlived the server as the sandbox did
    int gb = 0;
    std::ifstream(sandboxDir(handle.id) + "/disk-watch.gb") >> gb;
    // A sandbox started before the watch existed: the API's default size.
    if (gb < SandboxDisks::kMinGb || gb > SandboxDisks::kMaxGb)
        gb = SandboxDisks::kDefaultGb;
    watchDisk(handle, gb);
}

DiskState LinuxRuntime::diskState(const std::string& id)
{
    if (!m_watch) {
        const int gb = m_disks->sizeGb(id);
        return {gb, gb > 0 ? "image" : "", false, DiskWatch::inodeBound(gb)};
    }
    if (const int gb = m_quota ? m_quota->sizeGb(id) : 0; gb > 0)
        return {gb, "quota", false, DiskWatch::inodeBound(gb)};
    const DiskWatch::State s = m_watch->state(id);
    return {s.gb, s.gb > 0 ? "watch" : "", s.over, s.inodes};
}

bool LinuxRuntime::renewLease(const SandboxHandle& handle, int64_t endAtMs, int64_t graceMs)
{
    const nlohmann::json ping{{"op", "ping"},
                              {"lease", {{"endAtMs", endAtMs}, {"graceMs", graceMs}}}};
    return pingAgent(handle.socketPath, 1000, ping.dump());
}

bool LinuxRuntime::claim(const SandboxHandle& handle, const SandboxSpec& spec)
{
    nlohmann::json claim{{"op", "claim"},
                         {"envs", agentEnvs(spec)},
                         {"lease", {{"endAtMs", spec.endAtMs}, {"graceMs", spec.orphanGraceMs}}}};
    if (!spec.claimEnvsFile.empty())
        claim["envsFile"] = spec.claimEnvsFile;
    return pingAgent(handle.socketPath, 1000, claim.dump());
}

bool LinuxRuntime::isAlive(const SandboxHandle& handle)
{
    return processMatches(handle.initPid, handle.initStartTime) &&
           pingAgent(handle.socketPath, 2000);
}

void LinuxRuntime::end(const SandboxHandle& handle)
{
    if (!validSandboxId(handle.id))
        return;
    // A frozen (v1) task dies only once thawed; the pause fallback's stopped ones die anyway.
    if (m_cgroups.isFrozen(handle.id))
        m_cgroups.setFrozen(handle.id, false, 1000);
    m_cgroups.unthrottle(handle.id);
    if (processRemains(handle.initPid, handle.initStartTime))
        ::kill(handle.initPid, SIGKILL);
    m_cgroups.killProcesses(handle.id);
}

void LinuxRuntime::destroy(const SandboxHandle& handle)
{
    if (!validSandboxId(handle.id))
        return;
    if (m_watch)
        m_watch->remove(handle.id);
    end(handle);
    killAndWait(handle.initPid, handle.initStartTime);
    // A freeze that raced the kill (a snapshot or fork that froze the sandbox just after end()
    // looked) holds the killed task frozen (v1): thaw whatever the state reads, then wait again.
    if (processRemains(handle.initPid, handle.initStartTime)) {
        m_cgroups.setFrozen(handle.id, false, 1000);
        killAndWait(handle.initPid, handle.initStartTime);
    }
    // A half-created sandbox may have a pid only in its directory. (Closed before the
    // directory goes: an open file would keep the sandbox's disk mounted.)
    pid_t pid = 0;
    unsigned long long startTime = 0;
    if (std::ifstream pidFile(sandboxDir(handle.id) + "/init.pid"); pidFile >> pid >> startTime)
        killAndWait(pid, startTime);
    // Its quota file system's daemon ends with the sandbox's mount, or is ended here.
    if (m_quota)
        m_quota->release(handle.id);
    m_cgroups.remove(handle.id);
    ::unlink(socketPath(handle.id).c_str());
    removeSandboxDir(handle.id);
}

void LinuxRuntime::cleanupOrphans(const std::vector<std::string>& knownIds)
{
    std::set<std::string> known(knownIds.begin(), knownIds.end());
    std::set<std::string> found;
    for (const auto& id : dirNames(m_dataDir + "/sandboxes", ""))
        found.insert(id);
    for (const auto& id : dirNames(m_dataDir + "/run", ".sock"))
        found.insert(id);
    for (const auto& id : m_cgroups.existingIds())
        found.insert(id);
    for (const auto& id : m_disks->ids())
        found.insert(id);
    for (const auto& id : found) {
        if (known.count(id))
            continue;
        if (id.rfind(".probe-", 0) == 0) {
            m_cgroups.remove(id);
            continue;
        }
        SandboxHandle orphan;
        orphan.id = id;
        destroy(orphan);
    }
}

} // namespace lizard::runtime
