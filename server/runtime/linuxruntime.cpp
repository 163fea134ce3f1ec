// Creation of the runtime: directories, host probes and the template skeleton.
#include "runtime/linuxruntime.h"

#include "agent/tools/treeremover.h"
#include "common/log.h"
#include "runtime/agenttool.h"
#include "runtime/hostkeeper.h"
#include "runtime/hostprobe.h"

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::runtime {

namespace {

// Bump when the skeleton's content changes: a new one is built next to the old.
constexpr const char* kTemplateVersion = "6";

Status mkdirMode(const std::string& path, mode_t mode)
{
    if (::mkdir(path.c_str(), mode) != 0 && errno != EEXIST)
        return Error{ErrorKind::Internal, "INTERNAL", path + ": " + std::strerror(errno)};
    return okStatus();
}

// Names this server's cgroup subtree after its data directory (FNV-1a of the path).
std::string instanceName(const std::string& dataDir)
{
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : dataDir) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char buf[24];
    std::snprintf(buf, sizeof buf, "d%016llx", static_cast<unsigned long long>(h));
    return buf;
}

} // namespace

bool validSandboxId(const std::string& id)
{
    if (id.empty() || id.size() > 64 || id[0] == '.' || id[0] == '-')
        return false;
    for (char c : id) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'))
            return false;
    }
    return true;
}

LinuxRuntime::LinuxRuntime(std::string dataDir) : m_dataDir(std::move(dataDir)) {}

std::string LinuxRuntime::templateDir() const
{
    return m_dataDir + "/templates/" + kTemplateVersion + "-" + m_ids.kind + "-" +
           std::to_string(m_ids.hostRoot);
}

Status LinuxRuntime::prepareDirs()
{
    if (auto s = mkdirMode(m_dataDir, 0700); !s)
        return s;
    for (const char* sub : {"/templates", "/sandboxes", "/run", "/files"}) {
        if (auto s = mkdirMode(m_dataDir + sub, 0700); !s)
            return s;
    }
    return okStatus();
}

Status LinuxRuntime::ensureTemplate()
{
    // Staging trees of servers killed while they built the template (about 40 MB each): nothing
    // else would ever remove them. This server holds the data directory's lock, so no other
    // server is building; a killed one's builder, still writing, leaves the rest to a later start.
    const std::string templates = m_dataDir + "/templates";
    const std::string own = ".staging-" + std::to_string(::getpid());
    std::error_code ec;
    std::vector<std::string> stale;
    for (const auto& entry : std::filesystem::directory_iterator(templates, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(".staging-", 0) == 0 && name != own)
            stale.push_back(name);
    }
    for (const std::string& name : stale)
        removeTree(templates, name);
    const std::string finalDir = templateDir();
    if (::access((finalDir + "/root/etc/passwd").c_str(), F_OK) == 0)
        return okStatus();
    const std::string staging = m_dataDir + "/templates/.staging-" + std::to_string(::getpid());
    auto removeStaging = [&] {
        int parent = ::open((m_dataDir + "/templates").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (parent >= 0) {
            agent::removeTreeAt(parent, staging.substr(staging.find_last_of('/') + 1));
            ::close(parent);
        }
    };
    removeStaging();
    if (auto s = mkdirMode(staging, 0755); !s)
        return s;
    if (::getuid() == 0 && ::chown(staging.c_str(), m_ids.hostRoot, m_ids.hostRootGid) != 0)
        return Error{ErrorKind::Internal, "INTERNAL",
                     "chown " + staging + ": " + std::strerror(errno)};
    nlohmann::json config{{"mode", "template"},
                          {"idMap", m_ids.toJson()},
                          {"target", staging},
                          {"resolvConf", !m_slirp.empty()}};
    auto built = runAgentTool(m_agentPath, "template", config, 120000);
    if (!built) {
        // Files of the staging tree may belong to sandbox uids: remove them the same way.
        runAgentTool(m_agentPath, "remove",
                     {{"mode", "remove"}, {"idMap", m_ids.toJson()}, {"target", staging}}, 60000);
        removeStaging();
        return built.error();
    }
    if (::rename(staging.c_str(), finalDir.c_str()) != 0 && errno != ENOTEMPTY && errno != EEXIST)
        return Error{ErrorKind::Internal, "INTERNAL",
                     "rename " + staging + ": " + std::strerror(errno)};
    removeStaging(); // another server won the race: keep its template
    return okStatus();
}

Result<std::unique_ptr<Runtime>> LinuxRuntime::create(const std::string& dataDir, bool keeper)
{
    if (dataDir.empty() || dataDir[0] != '/')
        return Error{ErrorKind::Internal, "INTERNAL",
                     "the data directory must be an absolute path: " + dataDir};
    std::unique_ptr<LinuxRuntime> rt(new LinuxRuntime(dataDir));
    if (auto s = rt->prepareDirs(); !s)
        return s.error();
    rt->m_agentPath = findAgentBinary();
    if (::access(rt->m_agentPath.c_str(), X_OK) != 0)
        return Error{ErrorKind::Internal, "INTERNAL",
                     "lizard-agent not found at " + rt->m_agentPath};
    // Built once here rather than by libseccomp in every sandbox's PID 1, where it took
    // 1.5-2 ms of each create.
    if (auto programs = runAgentTool(rt->m_agentPath, "seccomp", nlohmann::json::object(), 10000)) {
        rt->m_seccomp[0] = programs->value("plain", "");
        rt->m_seccomp[1] = programs->value("diskWatched", "");
    } else {
        log::warn("sandboxes build their own seccomp filters: " + programs.error().message);
    }
    const SlirpProbe slirp = findSlirp();
    rt->m_slirp = slirp.path;
    rt->m_ids = chooseIdMapping();
    rt->m_cgroups.probe(instanceName(dataDir));
    if (keeper) {
        std::error_code ec;
        const auto real = std::filesystem::canonical(dataDir, ec); // as mountinfo names mounts
        rt->m_keeper = startHostKeeper(rt->m_agentPath, {{"dataDir", ec ? dataDir : real.string()},
                                                         {"cgroupBases", rt->m_cgroups.bases()}});
    }
    rt->m_disks = std::make_unique<SandboxDisks>(
        dataDir, rt->m_ids,
        std::vector<std::string>(std::begin(kSandboxSubdirs), std::end(kSandboxSubdirs)));
    if (!rt->m_disks->enforced()) {
        rt->m_quota = std::make_unique<QuotaDisks>(dataDir + "/sandboxes");
        rt->m_watch = std::make_unique<DiskWatch>(rt->m_agentPath, dataDir + "/sandboxes",
                                                  rt->m_ids.toJson());
    }

    Capabilities& caps = rt->m_caps;
    caps.cgroupMode = rt->m_cgroups.mode();
    caps.limits = rt->m_cgroups.limitsAvailable();
    caps.limitsNote = rt->m_cgroups.note();
    caps.freezer = rt->m_cgroups.mode() == "v2" && caps.limits   ? "cgroup-v2"
                   : rt->m_cgroups.mode() == "v1" && caps.limits ? "cgroup-v1"
                                                                 : "signals";
    if (!caps.limits) {
        rt->m_scope.probe();
        caps.limits = rt->m_scope.usable();
        caps.limitsNote = caps.limits ? "" : caps.limitsNote + "; " + rt->m_scope.note();
    }
    caps.fullUidRange = rt->m_ids.fullRange();
    caps.network = !rt->m_slirp.empty();
    caps.networkNote = slirp.whyNot;
    const bool quota = rt->m_quota && rt->m_quota->usable();
    caps.diskQuota = rt->m_disks->enforced() || quota;
    caps.diskBound = rt->m_disks->enforced() ? "image" : quota ? "quota" : "watch";
    caps.diskQuotaNote = rt->m_disks->note();
    if (!rt->m_disks->enforced())
        caps.diskQuotaNote += quota ? "" : "; " + rt->m_quota->note();
    std::string missing = missingInterpreterPackages();
    caps.interpreterTemplate = missing.empty();
    caps.interpreterMissing = missing;
    rt->m_desktopMissing = missingDesktopPackages();
    log::info("runtime: desktop template " + (rt->m_desktopMissing.empty()
                                                  ? std::string("yes")
                                                  : "no (missing: " + rt->m_desktopMissing + ")"));
    // Ask first whether user namespaces work at all, so a host that forbids them gets the
    // cause and the fix rather than whatever the template build trips over next.
    auto refuse = [&caps](const HostProblem& problem) {
        caps.sandboxes = false;
        caps.sandboxesCode = problem.code;
        caps.sandboxesError = problem.text();
    };
    if (const std::string denied = probeUserNamespace(); !denied.empty()) {
        refuse(diagnoseUserns(denied));
    } else if (auto s = rt->ensureTemplate(); !s) {
        const std::string& why = s.error().message;
        if (why.find("unshare(CLONE_NEWUSER)") != std::string::npos ||
            why.find("uid map") != std::string::npos || why.find("uid_map") != std::string::npos)
            refuse(diagnoseUserns(why));
        else
            refuse({"SANDBOX_RUNTIME_UNAVAILABLE",
                    "the sandbox template could not be built: " + why, ""});
    } else {
        caps.sandboxes = true;
    }
    return std::unique_ptr<Runtime>(std::move(rt));
}

} // namespace lizard::runtime
