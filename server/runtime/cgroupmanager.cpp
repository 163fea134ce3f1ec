#include "runtime/cgroupmanager.h"

#include "common/fileutil.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace lizard::runtime {

namespace {

constexpr const char* kRoot = "/sys/fs/cgroup";
const char* const kV1Controllers[] = {"memory", "pids", "cpu", "freezer"};
// All sandboxes together weigh half of what a sibling (the server's own cgroup, the desktop's
// slices) weighs when the CPU is contended: a fork bomb at its pids limit, even with cpus =
// every CPU of the host, leaves lizard-local its share and the API answering.
constexpr const char* kSandboxesCpuWeightV2 = "50";  // default 100
constexpr const char* kSandboxesCpuSharesV1 = "512"; // default 1024

bool writeFile(const std::string& path, const std::string& value)
{
    std::ofstream out(path);
    out << value;
    out.flush();
    return out.good();
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool makeDir(const std::string& path)
{
    return ::mkdir(path.c_str(), 0755) == 0 || errno == EEXIST;
}

// The cgroup v2 path of this process ("0::/user.slice/...").
std::string ownV2Cgroup()
{
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("0::", 0) == 0)
            return line.substr(3);
    }
    return "/";
}

bool enableControllers(const std::string& dir)
{
    std::string available = readFile(dir + "/cgroup.controllers");
    bool ok = true;
    for (const char* c : {"cpu", "memory", "pids"}) {
        if (available.find(c) == std::string::npos)
            return false;
        ok = writeFile(dir + "/cgroup.subtree_control", std::string("+") + c) && ok;
    }
    return ok;
}

void killAll(const std::string& dir)
{
    // cgroup.kill takes the whole subtree at once (Linux 5.14); a threaded group refuses it.
    if (pathExists(dir + "/cgroup.kill") && writeFile(dir + "/cgroup.kill", "1"))
        return;
    // A threaded group lists threads, not processes; a thread's id signals its whole process.
    for (const char* list : {"/cgroup.procs", "/cgroup.threads"}) {
        std::istringstream ids(readFile(dir + list));
        for (pid_t pid; ids >> pid;)
            ::kill(pid, SIGKILL);
    }
}

// Removes a cgroup directory, killing what is still in it.
void removeKilling(const std::string& dir)
{
    // A killed task leaves its cgroup only once its exit is complete, which on a loaded host
    // (many processes freeing their memory at once) takes more than a second: the deadline
    // is generous, the first retries quick.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    auto pause = std::chrono::milliseconds(5);
    while (::rmdir(dir.c_str()) != 0 && errno != ENOENT &&
           std::chrono::steady_clock::now() < deadline) {
        killAll(dir);
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(100));
    }
}

} // namespace

void CgroupManager::probe(const std::string& instance)
{
    if (pathExists(std::string(kRoot) + "/cgroup.controllers")) {
        m_mode = "v2";
        std::string base = std::string(kRoot) + (::getuid() == 0 ? "" : ownV2Cgroup());
        if (::getuid() != 0) {
            // No internal processes: the server moves into a leaf of its own delegated cgroup
            // before it may enable controllers for its sandboxes' subtree.
            std::string leaf = base + "/lizard-server";
            if (makeDir(leaf))
                writeFile(leaf + "/cgroup.procs", std::to_string(::getpid()));
        }
        const std::string top = base + "/lizard-local";
        m_v2Base = top + "/" + instance;
        bool ok = ::access(base.c_str(), W_OK) == 0 && enableControllers(base) && makeDir(top) &&
                  enableControllers(top) && makeDir(m_v2Base) && enableControllers(m_v2Base);
        ok = ok && writeFile(top + "/cpu.weight", kSandboxesCpuWeightV2);
        if (!ok)
            m_note = "cgroup v2 controllers cpu, memory, pids are not delegated to " + base +
                     " (systemd: run lizard-local in a unit or scope with Delegate=yes)";
    } else if (pathExists(std::string(kRoot) + "/memory/cgroup.procs")) {
        m_mode = "v1";
        bool ok = true;
        for (const char* c : kV1Controllers) {
            const std::string top = std::string(kRoot) + "/" + c + "/lizard-local";
            m_v1Bases.push_back(top + "/" + instance);
            ok = makeDir(top) && makeDir(m_v1Bases.back()) && ok;
            if (ok && std::strcmp(c, "cpu") == 0)
                ok = writeFile(top + "/cpu.shares", kSandboxesCpuSharesV1);
        }
        if (!ok)
            m_note = "cgroup v1 hierarchies under /sys/fs/cgroup are not writable by this user "
                     "(run lizard-local as root, or boot with cgroup v2 and systemd delegation)";
    } else {
        m_mode = "none";
        m_note = "no cgroup file system at /sys/fs/cgroup";
        return;
    }
    if (!m_note.empty())
        return;
    // A real try: a probe cgroup with limits, removed again.
    std::string probeId = ".probe-" + std::to_string(::getpid());
    auto created = create(probeId, Limits{});
    m_limits = created.limitsApplied;
    remove(probeId);
    if (!m_limits)
        m_note = "cpu/memory/pids limits could not be written in the " + m_mode + " hierarchy";
}

void CgroupManager::removeInstanceIfEmpty()
{
    if (!m_v2Base.empty())
        ::rmdir(m_v2Base.c_str());
    for (const auto& b : m_v1Bases)
        ::rmdir(b.c_str());
}

std::vector<std::string> CgroupManager::dirsFor(const std::string& id) const
{
    if (m_mode == "v2" && !m_v2Base.empty())
        return {m_v2Base + "/" + id};
    std::vector<std::string> dirs;
    for (const auto& b : m_v1Bases)
        dirs.push_back(b + "/" + id);
    return dirs;
}

bool CgroupManager::applyLimits(const std::string& id, const Limits& limits) const
{
    const long long memory = (long long)limits.memoryMb * 1024 * 1024;
    const long long period = 100000;
    const long long quota = (long long)(limits.cpus * double(period));
    if (m_mode == "v2") {
        std::string d = m_v2Base + "/" + id;
        writeFile(d + "/memory.swap.max", "0"); // absent without swap accounting: fine
        return writeFile(d + "/memory.max", std::to_string(memory)) &&
               writeFile(d + "/pids.max", std::to_string(limits.pidsMax)) &&
               writeFile(d + "/cpu.max", std::to_string(quota) + " " + std::to_string(period));
    }
    // m_v1Bases follows kV1Controllers: memory, pids, cpu, freezer.
    const std::string mem = m_v1Bases[0] + "/" + id, pids = m_v1Bases[1] + "/" + id,
                      cpu = m_v1Bases[2] + "/" + id;
    bool ok = writeFile(mem + "/memory.limit_in_bytes", std::to_string(memory));
    writeFile(mem + "/memory.memsw.limit_in_bytes",
              std::to_string(memory)); // no swap escape, where accounted
    return ok && writeFile(pids + "/pids.max", std::to_string(limits.pidsMax)) &&
           writeFile(cpu + "/cpu.cfs_period_us", std::to_string(period)) &&
           writeFile(cpu + "/cpu.cfs_quota_us", std::to_string(quota));
}

SandboxCgroups CgroupManager::create(const std::string& id, const Limits& limits)
{
    SandboxCgroups out;
    if (m_mode == "none" || (!m_note.empty() && id.rfind(".probe-", 0) != 0))
        return out;
    for (const auto& dir : dirsFor(id)) {
        // The instance directory may have been removed while empty (removeInstanceIfEmpty).
        makeDir(dir.substr(0, dir.find_last_of('/')));
        if (!makeDir(dir)) {
            remove(id);
            return {};
        }
        out.procsFiles.push_back(dir + "/cgroup.procs");
    }
    out.limitsApplied = applyLimits(id, limits);
    if (out.limitsApplied)
        splitAgentFromWorkload(id, out);
    return out;
}

void CgroupManager::splitAgentFromWorkload(const std::string& id, SandboxCgroups& out) const
{
    if (m_mode == "v2") {
        const std::string dir = m_v2Base + "/" + id;
        // Preferred: the workload a threaded child, as v1's is a child in the cpu hierarchy.
        // PID 1 stays in the sandbox's own group (the threaded domain, which may hold
        // processes) and each command moves only its own thread, "0" into cgroup.threads, which
        // skips the kernel's global lock of thread groups just as v1's `tasks` does. A move
        // through cgroup.procs waits for an RCU grace period whenever that lock was idle: 8 ms
        // here, on every exec after a pause. Threaded groups came with Linux 4.14.
        const std::string work = dir + "/" + kWorkloadCgroup;
        if (makeDir(work)) {
            if (writeFile(work + "/cgroup.type", "threaded") &&
                writeFile(dir + "/cgroup.subtree_control", "+cpu")) {
                out.workloadProcsFile = work + "/cgroup.threads";
                return;
            }
            ::rmdir(work.c_str());
        }
        // Otherwise two domain children; both weigh the default: the agent gets half of the
        // sandbox when it needs it.
        if (!writeFile(dir + "/cgroup.subtree_control", "+cpu"))
            return;
        if (!makeDir(dir + "/" + kAgentCgroup) || !makeDir(dir + "/" + kWorkloadCgroup)) {
            // A cgroup that hands a controller to its children may hold no process itself.
            ::rmdir((dir + "/" + kAgentCgroup).c_str());
            writeFile(dir + "/cgroup.subtree_control", "-cpu");
            return;
        }
        out.procsFiles = {dir + "/" + kAgentCgroup + "/cgroup.procs"};
        out.workloadProcsFile = dir + "/" + kWorkloadCgroup + "/cgroup.procs";
        return;
    }
    // v1: PID 1's tasks and the workload's group weigh 1024 each in the sandbox's cpu cgroup;
    // the other hierarchies keep every process of the sandbox in one cgroup.
    const std::string work = m_v1Bases[2] + "/" + id + "/" + kWorkloadCgroup;
    if (!makeDir(work))
        return;
    out.workloadProcsFile = work + "/cgroup.procs";
}

long long CgroupManager::oomKills(const std::string& id) const
{
    for (const auto& dir : dirsFor(id)) {
        for (const char* file : {"/memory.events", "/memory.oom_control"}) {
            std::ifstream in(dir + file);
            std::string key;
            long long value = 0;
            while (in >> key >> value)
                if (key == "oom_kill")
                    return value;
        }
    }
    return -1;
}

void CgroupManager::unthrottle(const std::string& id) const
{
    if (m_mode == "v2" && !m_v2Base.empty())
        writeFile(m_v2Base + "/" + id + "/cpu.max", "max");
    else if (m_mode == "v1" && m_v1Bases.size() > 2)
        writeFile(m_v1Bases[2] + "/" + id + "/cpu.cfs_quota_us", "-1");
}

void CgroupManager::killProcesses(const std::string& id) const
{
    const std::vector<std::string> dirs = dirsFor(id);
    if (dirs.empty() || !pathExists(dirs.front()))
        return;
    // v2: the agent's and the workload's groups, then the sandbox's own (where a sandbox not
    // split keeps them; its cgroup.kill takes the subtree at once). v1: the first hierarchy
    // (memory) holds every process of the sandbox in the sandbox's own group.
    for (const char* child : {kAgentCgroup, kWorkloadCgroup})
        killAll(dirs.front() + "/" + child);
    killAll(dirs.front());
}

void CgroupManager::remove(const std::string& id)
{
    for (const auto& dir : dirsFor(id)) {
        if (!pathExists(dir))
            continue;
        // Children first: a cgroup with children cannot be removed.
        for (const char* child : {kAgentCgroup, kWorkloadCgroup})
            removeKilling(dir + "/" + child);
        removeKilling(dir);
    }
}

std::vector<std::string> CgroupManager::bases() const
{
    if (m_mode == "v2")
        return m_v2Base.empty() ? std::vector<std::string>{} : std::vector<std::string>{m_v2Base};
    return m_v1Bases;
}

std::vector<std::string> CgroupManager::existingIds() const
{
    std::vector<std::string> ids;
    std::string base = m_mode == "v2" ? m_v2Base : (m_v1Bases.empty() ? "" : m_v1Bases.front());
    if (base.empty())
        return ids;
    if (DIR* dir = ::opendir(base.c_str())) {
        while (dirent* e = ::readdir(dir)) {
            std::string name = e->d_name;
            if (e->d_type == DT_DIR && name != "." && name != "..")
                ids.push_back(name);
        }
        ::closedir(dir);
    }
    return ids;
}

} // namespace lizard::runtime
