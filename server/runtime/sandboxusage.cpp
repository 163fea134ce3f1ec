#include "runtime/sandboxusage.h"

#include "runtime/cgroupnames.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <string_view>
#include <unistd.h>

namespace lizard::runtime {

namespace {

// The sampler reads a few small files per sandbox every interval: plain read(2) into a buffer,
// no stream machinery (50 idle sandboxes must cost well under 1 % of a core).
bool usageReadInto(const std::string& path, std::string& out, size_t max = 64 * 1024)
{
    out.clear();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0 && out.size() < max)
        out.append(buf, size_t(n));
    ::close(fd);
    return n >= 0;
}

std::optional<uint64_t> usageReadNumber(const std::string& path)
{
    std::string text;
    if (!usageReadInto(path, text) || text.empty() ||
        !std::isdigit(static_cast<unsigned char>(text[0])))
        return std::nullopt;
    return std::strtoull(text.c_str(), nullptr, 10);
}

// The value after `key` (a whole word at a line's start) in "key value" lines.
std::optional<uint64_t> usageKeyedValue(std::string_view text, std::string_view key)
{
    for (size_t pos = 0; pos < text.size();) {
        const size_t end = std::min(text.find('\n', pos), text.size());
        const std::string_view line = text.substr(pos, end - pos);
        if (line.size() > key.size() && line.substr(0, key.size()) == key &&
            (line[key.size()] == ' ' || line[key.size()] == ':' || line[key.size()] == '\t')) {
            size_t i = key.size() + 1;
            while (i < line.size() && !std::isdigit(static_cast<unsigned char>(line[i])))
                ++i;
            return std::strtoull(std::string(line.substr(i)).c_str(), nullptr, 10);
        }
        pos = end + 1;
    }
    return std::nullopt;
}

std::string usagePath(pid_t pid, const char* file)
{
    return "/proc/" + std::to_string(pid) + "/" + file;
}

double usageTicksPerSecond()
{
    static const double hz = double(::sysconf(_SC_CLK_TCK));
    return hz > 0 ? hz : 100.0;
}

std::vector<pid_t> usagePidsOf(const std::string& cgroupDir)
{
    std::vector<pid_t> out;
    std::string text;
    // The sandbox's cgroup and its agent's and workload's children (cgroupmanager.h).
    for (const std::string& dir :
         {cgroupDir, cgroupDir + "/" + kAgentCgroup, cgroupDir + "/" + kWorkloadCgroup}) {
        if (!usageReadInto(dir + "/cgroup.procs", text, 1 << 20))
            continue;
        const char* p = text.c_str();
        char* end = nullptr;
        for (long v; (v = std::strtol(p, &end, 10)), end != p; p = end)
            if (v > 0)
                out.push_back(pid_t(v));
    }
    return out;
}

// Storage bytes read and written by `pid` and by the children it reaped (the kernel adds a
// reaped child's counters to its parent's). Empty when not readable (another user's process,
// or one that cannot be dumped, as an ordinary user).
std::optional<std::pair<uint64_t, uint64_t>> usageReadIo(pid_t pid)
{
    std::string text;
    if (!usageReadInto(usagePath(pid, "io"), text) || text.empty())
        return std::nullopt;
    const auto r = usageKeyedValue(text, "read_bytes");
    const auto w = usageKeyedValue(text, "write_bytes");
    if (!r || !w)
        return std::nullopt;
    return std::make_pair(*r, *w);
}

// Anonymous and shared-memory pages the process maps: its share of a working set without
// the file cache (file pages the kernel can drop).
std::optional<uint64_t> usageProcessMemory(pid_t pid)
{
    std::string text;
    if (!usageReadInto(usagePath(pid, "status"), text))
        return std::nullopt;
    const auto anon = usageKeyedValue(text, "RssAnon");
    const auto shmem = usageKeyedValue(text, "RssShmem");
    if (!anon)
        return std::nullopt; // a kernel thread or a zombie: no memory
    return (*anon + shmem.value_or(0)) * 1024;
}

} // namespace

CgroupStatDirs findCgroupDirs(pid_t initPid, const std::string& sandboxId, const std::string& mode,
                              const std::string& cgroupRoot)
{
    CgroupStatDirs dirs;
    std::string text;
    if (mode == "none" || !usageReadInto(usagePath(initPid, "cgroup"), text))
        return dirs;
    const auto own = [&](std::string_view path) {
        const size_t slash = path.rfind('/');
        const std::string_view last =
            slash == std::string_view::npos ? path : path.substr(slash + 1);
        return last.find(sandboxId) != std::string_view::npos;
    };
    for (size_t pos = 0; pos < text.size();) {
        const size_t end = std::min(text.find('\n', pos), text.size());
        const std::string_view line(text.data() + pos, end - pos);
        pos = end + 1;
        // "hierarchy-id:controllers:path"
        const size_t a = line.find(':');
        const size_t b = a == std::string_view::npos ? a : line.find(':', a + 1);
        if (b == std::string_view::npos)
            continue;
        const std::string_view controllers = line.substr(a + 1, b - a - 1);
        std::string_view path = line.substr(b + 1);
        // v2: PID 1 lives in the sandbox cgroup's child for the agent (cgroupmanager.h).
        const std::string agentChild = std::string("/") + kAgentCgroup;
        if (path.size() > agentChild.size() &&
            path.substr(path.size() - agentChild.size()) == agentChild)
            path.remove_suffix(agentChild.size());
        if (!own(path))
            continue;
        if (mode == "v2" && controllers.empty()) {
            dirs.v2 = cgroupRoot + std::string(path);
            continue;
        }
        if (mode != "v1")
            continue;
        // v1: the directory of a hierarchy is named after its controllers ("cpu,cpuacct").
        const std::string mount = cgroupRoot + "/" + std::string(controllers) + std::string(path);
        size_t from = 0;
        while (from <= controllers.size()) {
            const size_t comma = std::min(controllers.find(',', from), controllers.size());
            const std::string_view c = controllers.substr(from, comma - from);
            if (c == "memory")
                dirs.memory = mount;
            else if (c == "cpuacct")
                dirs.cpuacct = mount;
            else if (c == "pids")
                dirs.pids = mount;
            from = comma + 1;
        }
    }
    return dirs;
}

std::optional<ProcStatEntry> readProcStatEntry(pid_t pid)
{
    std::string line;
    if (!usageReadInto(usagePath(pid, "stat"), line))
        return std::nullopt;
    const size_t close = line.rfind(')');
    if (close == std::string::npos)
        return std::nullopt;
    // Fields after the command: 3 state, 4 ppid, ... 14 utime, 15 stime, 16 cutime, 17 cstime,
    // ... 20 num_threads.
    const char* p = line.c_str() + close + 2;
    ProcStatEntry e;
    char* end = nullptr;
    for (int field = 3; field <= 20 && *p; ++field) {
        if (field == 3) {
            p += 2;
            continue;
        }
        const long long v = std::strtoll(p, &end, 10);
        if (end == p)
            return std::nullopt;
        p = end;
        if (field == 4)
            e.ppid = pid_t(v);
        else if (field >= 14 && field <= 17)
            e.cpuTicks += uint64_t(v > 0 ? v : 0);
        else if (field == 20)
            e.threads = long(v);
    }
    return e;
}

void ProcSnapshot::scan()
{
    m_entries.clear();
    m_children.clear();
    DIR* dir = ::opendir("/proc");
    if (dir == nullptr)
        return;
    while (dirent* e = ::readdir(dir)) {
        if (!std::isdigit(static_cast<unsigned char>(e->d_name[0])))
            continue;
        const pid_t pid = pid_t(std::atoi(e->d_name));
        if (auto st = readProcStatEntry(pid)) {
            m_entries.emplace(pid, *st);
            m_children.emplace(st->ppid, pid);
        }
    }
    ::closedir(dir);
}

std::vector<pid_t> ProcSnapshot::tree(pid_t root) const
{
    std::vector<pid_t> out;
    if (!m_entries.count(root))
        return out;
    out.push_back(root);
    for (size_t i = 0; i < out.size(); ++i) {
        auto [first, last] = m_children.equal_range(out[i]);
        for (auto it = first; it != last; ++it)
            out.push_back(it->second);
    }
    return out;
}

const ProcStatEntry* ProcSnapshot::find(pid_t pid) const
{
    const auto it = m_entries.find(pid);
    return it == m_entries.end() ? nullptr : &it->second;
}

std::optional<std::pair<uint64_t, uint64_t>> readNetDev(pid_t pid)
{
    std::string text;
    if (!usageReadInto(usagePath(pid, "net/dev"), text))
        return std::nullopt;
    uint64_t rx = 0, tx = 0;
    // Two header lines, then "  name: rxbytes packets errs drop fifo frame compressed
    // multicast txbytes ...".
    for (size_t pos = 0; pos < text.size();) {
        const size_t end = std::min(text.find('\n', pos), text.size());
        const std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        const size_t colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        size_t start = line.find_first_not_of(' ');
        if (line.compare(start, colon - start, "lo") == 0)
            continue;
        const char* p = line.c_str() + colon + 1;
        char* next = nullptr;
        for (int field = 0; field < 9; ++field, p = next) {
            const unsigned long long v = std::strtoull(p, &next, 10);
            if (next == p)
                break;
            if (field == 0)
                rx += v;
            else if (field == 8)
                tx += v;
        }
    }
    return std::make_pair(rx, tx);
}

UsageReading readUsage(pid_t initPid, const CgroupStatDirs& dirs, const ProcSnapshot* procs,
                       IoCarry& io)
{
    UsageReading r;
    std::vector<pid_t> pids;
    if (dirs.any()) {
        r.source = "cgroup";
        pids = usagePidsOf(dirs.procsDir());
        std::string text;
        if (!dirs.v2.empty()) {
            if (usageReadInto(dirs.v2 + "/cpu.stat", text))
                if (auto usec = usageKeyedValue(text, "usage_usec"))
                    r.cpuSeconds = double(*usec) / 1e6;
            // The working set as container tools define it: usage minus inactive file pages.
            const auto current = usageReadNumber(dirs.v2 + "/memory.current");
            if (current && usageReadInto(dirs.v2 + "/memory.stat", text)) {
                const uint64_t inactive = usageKeyedValue(text, "inactive_file").value_or(0);
                r.memoryBytes = *current > inactive ? *current - inactive : 0;
            }
            r.tasks = usageReadNumber(dirs.v2 + "/pids.current");
        } else {
            if (!dirs.cpuacct.empty())
                if (auto ns = usageReadNumber(dirs.cpuacct + "/cpuacct.usage"))
                    r.cpuSeconds = double(*ns) / 1e9;
            const auto usage = dirs.memory.empty()
                                   ? std::nullopt
                                   : usageReadNumber(dirs.memory + "/memory.usage_in_bytes");
            if (usage && usageReadInto(dirs.memory + "/memory.stat", text)) {
                const uint64_t inactive = usageKeyedValue(text, "total_inactive_file").value_or(0);
                r.memoryBytes = *usage > inactive ? *usage - inactive : 0;
            }
            if (!dirs.pids.empty())
                r.tasks = usageReadNumber(dirs.pids + "/pids.current");
        }
    } else if (procs != nullptr) {
        r.source = "proc";
        pids = procs->tree(initPid);
    }
    if (pids.empty())
        return r;

    // What the cgroup did not give, from the processes themselves.
    const bool needCpu = !r.cpuSeconds, needTasks = !r.tasks, needMemory = !r.memoryBytes;
    uint64_t ticks = 0, tasks = 0, memory = 0;
    bool memoryKnown = false;
    uint64_t ioRead = io.goneRead, ioWrite = io.goneWrite;
    // Known wherever the kernel keeps the counters, also while no process of the sandbox can
    // be read (then nothing readable wrote: 0, not a gap that would lose the next interval).
    static const bool ioCounted = usageReadIo(::getpid()).has_value();
    const bool ioKnown = ioCounted;
    const bool pid1Io = usageReadIo(initPid).has_value();
    std::map<pid_t, std::pair<uint64_t, uint64_t>> children; // direct children of PID 1
    for (pid_t pid : pids) {
        if (needCpu || needTasks || !pid1Io) {
            const ProcStatEntry* known = procs ? procs->find(pid) : nullptr;
            std::optional<ProcStatEntry> read;
            if (known == nullptr && (read = readProcStatEntry(pid)))
                known = &*read;
            if (known != nullptr) {
                ticks += known->cpuTicks;
                tasks += uint64_t(std::max(0L, known->threads));
                if (!pid1Io && known->ppid == initPid)
                    children[pid]; // filled below when its I/O is readable
            }
        }
        if (needMemory)
            if (auto m = usageProcessMemory(pid)) {
                memory += *m;
                memoryKnown = true;
            }
        if (auto rw = usageReadIo(pid)) {
            ioRead += rw->first;
            ioWrite += rw->second;
            if (auto it = children.find(pid); it != children.end())
                it->second = *rw;
        }
    }
    // PID 1 reaps its children, and their counters go to PID 1's, which an ordinary user cannot
    // read (it is not dumpable): what a child of PID 1 did is kept as last seen once it ended.
    if (!pid1Io) {
        for (const auto& [pid, rw] : io.lastSeen)
            if (!children.count(pid)) {
                io.goneRead += rw.first;
                io.goneWrite += rw.second;
                ioRead += rw.first;
                ioWrite += rw.second;
            }
        std::erase_if(children,
                      [](const auto& kv) { return kv.second.first == 0 && kv.second.second == 0; });
        io.lastSeen = std::move(children);
    }
    if (needCpu)
        r.cpuSeconds = double(ticks) / usageTicksPerSecond();
    if (needTasks)
        r.tasks = tasks;
    if (needMemory && memoryKnown)
        r.memoryBytes = memory;
    if (ioKnown) {
        r.ioReadBytes = ioRead;
        r.ioWriteBytes = ioWrite;
    }
    if (auto net = readNetDev(initPid)) {
        r.netRxBytes = net->first;
        r.netTxBytes = net->second;
    }
    return r;
}

} // namespace lizard::runtime
