#include "agent/tools/keeper.h"

#include "runtime/cgroupnames.h"
#include "runtime/procinfo.h"
#include "runtime/quotadaemonfile.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <poll.h>
#include <sstream>
#include <string>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace lizard::agent {

namespace {

struct KeeperConfig
{
    std::string dataDir; // absolute, without symbolic links (as mountinfo names mounts)
    std::vector<std::string> cgroupBases;
};

// mountinfo writes space, tab, newline and backslash in paths as \ooo.
std::string unescape(const std::string& s)
{
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 3 < s.size() &&
            std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
            out += char(std::stoi(s.substr(i + 1, 3), nullptr, 8));
            i += 3;
        } else {
            out += s[i];
        }
    }
    return out;
}

bool isUnder(const std::string& path, const std::string& dir)
{
    return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                           path[dir.size()] == '/');
}

// Every mount at or below `dir`, deepest first (the order they can go in).
std::vector<std::string> mountsUnder(const std::string& dir)
{
    std::vector<std::string> out;
    std::ifstream in("/proc/self/mountinfo");
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::string id, parent, device, root, point;
        if (fields >> id >> parent >> device >> root >> point && isUnder(unescape(point), dir))
            out.push_back(unescape(point));
    }
    std::sort(out.begin(), out.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    return out;
}

void unmountUnder(const std::string& dir)
{
    // Detached: a process of the ended sandbox that the kernel has not yet released may still
    // hold it; the loop device behind an image auto-clears once nothing does.
    for (const auto& point : mountsUnder(dir))
        ::umount2(point.c_str(), MNT_DETACH | UMOUNT_NOFOLLOW);
}

std::vector<std::string> subdirectories(const std::string& dir)
{
    std::vector<std::string> out;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (e->d_type == DT_DIR && name != "." && name != "..")
                out.push_back(name);
        }
        ::closedir(d);
    }
    return out;
}

// A pidfd of the sandbox's PID 1 as recorded in its directory, while that very process (the
// same start time: pids are reused) still runs; -1 when it does not.
int livePid1(const std::string& sandboxDir)
{
    pid_t pid = 0;
    unsigned long long start = 0;
    if (std::ifstream in(sandboxDir + "/init.pid"); !(in >> pid >> start) || pid <= 0)
        return -1;
    const int fd = int(::syscall(SYS_pidfd_open, pid, 0));
    if (fd < 0)
        return -1;
    // Checked once the pidfd is open, so the pidfd is of the recorded process. A zombie that
    // its parent has not yet reaped has ended too (else each round would find it again).
    if (!runtime::processMatches(pid, start)) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// One round, under the data directory's lock: releases what belongs to no running sandbox and
// adds the sandboxes that still run to `running` (id -> pidfd of PID 1). Answers whether a
// cgroup of an ended sandbox is still busy: its last processes (slirp4netns, PID 1 itself until
// it is reaped) leave it a moment after PID 1 ends.
bool sweep(const KeeperConfig& c, std::map<std::string, int>& running)
{
    bool busy = false;
    unmountUnder(c.dataDir + "/disks/.pool");
    unmountUnder(c.dataDir + "/volumes"); // attach mounts live only during a start
    const std::string sandboxes = c.dataDir + "/sandboxes";
    for (const auto& id : subdirectories(sandboxes)) {
        if (running.count(id))
            continue;
        if (const int fd = livePid1(sandboxes + "/" + id); fd >= 0) {
            running[id] = fd;
        } else {
            unmountUnder(sandboxes + "/" + id);
            // Its quota file system's daemon ends with the sandbox's mount; if not, here.
            runtime::endQuotaDaemon(sandboxes + "/" + id, 1000);
        }
    }
    for (const auto& base : c.cgroupBases) {
        for (const auto& id : subdirectories(base)) {
            // A cgroup with processes in it cannot be removed (EBUSY): only ended ones go,
            // their agent's and workload's children first.
            if (running.count(id))
                continue;
            const std::string dir = base + "/" + id;
            for (const char* child : {runtime::kAgentCgroup, runtime::kWorkloadCgroup})
                ::rmdir((dir + "/" + child).c_str());
            if (::rmdir(dir.c_str()) != 0 && errno == EBUSY)
                busy = true;
        }
        ::rmdir(base.c_str()); // the instance's own, once empty
    }
    return busy;
}

// Blocks until at least one of `fds` is readable (its process ended), or `timeoutMs` passed
// (-1: no limit); answers which ended.
std::vector<int> waitForEnds(const std::vector<int>& fds, int timeoutMs = -1)
{
    std::vector<pollfd> p;
    for (int fd : fds)
        p.push_back({fd, POLLIN, 0});
    while (::poll(p.data(), p.size(), timeoutMs) < 0 && errno == EINTR) {
    }
    std::vector<int> ended;
    for (const auto& e : p) {
        if (e.revents != 0)
            ended.push_back(e.fd);
    }
    return ended;
}

} // namespace

int runKeeper(const nlohmann::json& config, int serverPidfd)
{
    ::setsid();
    for (int sig : {SIGHUP, SIGINT, SIGPIPE})
        std::signal(sig, SIG_IGN);
    [[maybe_unused]] const int cwd = ::chdir("/"); // never the reason a directory stays busy
    KeeperConfig c;
    c.dataDir = config.at("dataDir").get<std::string>();
    for (const auto& b : config.value("cgroupBases", nlohmann::json::array()))
        c.cgroupBases.push_back(b.get<std::string>());

    waitForEnds({serverPidfd});
    ::close(serverPidfd);
    std::map<std::string, int> running;
    // A cgroup that stays busy (a process that will not die) is given up on after 30 s.
    constexpr int kBusyRetryMs = 200, kBusyRounds = 150;
    int busyRounds = 0;
    for (;;) {
        // The lock: a server that took over owns everything here (it adopts the sandboxes that
        // run and cleans up the rest), so the keeper's work is done. With the lock held, no
        // server starts while a round unmounts. A data directory removed meanwhile has no lock
        // file, and no server can run there.
        const int lock = ::open((c.dataDir + "/lock").c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
        if (lock >= 0 && ::flock(lock, LOCK_EX | LOCK_NB) != 0) {
            ::close(lock);
            break;
        }
        const bool busy = sweep(c, running);
        if (lock >= 0)
            ::close(lock);
        if (running.empty() && (!busy || ++busyRounds > kBusyRounds))
            break;
        std::vector<int> fds;
        for (const auto& [id, fd] : running)
            fds.push_back(fd);
        const std::vector<int> ended = waitForEnds(fds, busy ? kBusyRetryMs : -1);
        for (auto it = running.begin(); it != running.end();) {
            if (std::find(ended.begin(), ended.end(), it->second) != ended.end()) {
                ::close(it->second);
                it = running.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (const auto& [id, fd] : running)
        ::close(fd);
    return 0;
}

} // namespace lizard::agent
