#include "agent/build/launcher.h"

#include "agent/build/allowpolicy.h"
#include "agent/build/cgroupfork.h"
#include "agent/build/hostusr.h"
#include "agent/build/idmap.h"
#include "agent/build/netguard.h"
#include "agent/build/quotamount.h"
#include "agent/build/rlimits.h"
#include "agent/build/sandboxinit.h"
#include "agent/build/seccompfilter.h"
#include "agent/build/slirp.h"
#include "agent/build/statuspipe.h"
#include "agent/tools/changesarchive.h"
#include "agent/tools/changeswalk.h"
#include "agent/tools/templatebuilder.h"
#include "agent/tools/treecopier.h"
#include "agent/tools/treeremover.h"
#include "agent/tools/usagewalk.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <iostream>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

constexpr int kSetupTimeoutMs = 20000;

int report(const nlohmann::json& j)
{
    std::cout << j.dump() << std::endl;
    return j.value("ok", false) ? 0 : 1;
}

int fail(const std::string& message)
{
    return report({{"ok", false}, {"error", message}});
}

std::string errnoText(const std::string& what)
{
    return what + ": " + std::strerror(errno);
}

struct UsernsChild
{
    pid_t pid = -1;
    int statusFd = -1; // read end of the status pipe
    std::string error;
    int forkErrno = 0; // when the fork itself failed
};

// Forks a child that unshares its user namespace; the maps are written from here; then
// `body(statusWriteFd)` runs in the child, which still has its host credentials (it becomes
// root of the namespace with becomeNamespaceRoot()). The child starts in the cgroup v2 group
// `cgroupDirFd` when it is not -1 (cgroupfork.h).
UsernsChild forkIntoUserns(const LaunchConfig& config, const std::function<int(int)>& body,
                           int cgroupDirFd = -1)
{
    UsernsChild out;
    int toParent[2], toChild[2], status[2];
    if (::pipe2(toParent, O_CLOEXEC) || ::pipe2(toChild, O_CLOEXEC) || ::pipe2(status, O_CLOEXEC)) {
        out.error = errnoText("pipe");
        return out;
    }
    pid_t pid = forkInto(cgroupDirFd);
    if (pid == 0) {
        if (cgroupDirFd >= 0)
            ::close(cgroupDirFd); // the host's cgroup tree is none of the sandbox's business
        ::close(toParent[0]);
        ::close(toChild[1]);
        ::close(status[0]);
        if (::unshare(CLONE_NEWUSER) != 0) {
            sendStatus(status[1], "E " + errnoText("unshare(CLONE_NEWUSER)"));
            ::_exit(1);
        }
        char c = 'u';
        [[maybe_unused]] auto w = ::write(toParent[1], &c, 1);
        if (::read(toChild[0], &c, 1) != 1)
            ::_exit(1);
        ::_exit(body(status[1]));
    }
    ::close(toParent[1]);
    ::close(toChild[0]);
    ::close(status[1]);
    out.statusFd = status[0];
    if (pid < 0) {
        out.forkErrno = errno;
        out.error = errnoText("fork");
        return out;
    }
    out.pid = pid;
    char c = 0;
    if (::read(toParent[0], &c, 1) != 1) {
        std::string line;
        out.error = readStatus(status[0], line, 1000) && line.size() > 2
                        ? line.substr(2)
                        : "user namespace setup failed";
    } else if (auto e = writeIdMaps(pid, config); !e.empty()) {
        out.error = "writing id maps: " + e;
    } else {
        c = 'g';
        [[maybe_unused]] auto w = ::write(toChild[1], &c, 1);
    }
    ::close(toParent[0]);
    ::close(toChild[1]);
    if (!out.error.empty()) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
    }
    return out;
}

int waitChild(pid_t pid)
{
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

// Runs a one-shot body (template, remove) in the namespace and reports.
int runSimple(const LaunchConfig& config, int targetFd, const std::function<std::string(int)>& work)
{
    auto child = forkIntoUserns(config, [&](int statusFd) {
        std::string e = becomeNamespaceRoot(config.idMap);
        if (e.empty())
            e = work(targetFd);
        sendStatus(statusFd, e.empty() ? "R" : "E " + e);
        return e.empty() ? 0 : 1;
    });
    if (!child.error.empty())
        return fail(child.error);
    std::string line;
    bool got = readStatus(child.statusFd, line, 600000);
    waitChild(child.pid);
    if (got && line == "R")
        return report({{"ok", true}});
    return fail(got && line.size() > 2 ? line.substr(2) : "helper exited without a result");
}

int openDir(const std::string& path)
{
    return ::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
}

int makeListener(const std::string& path, std::string& error)
{
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) {
        error = "socket path too long (" + std::to_string(path.size()) + " bytes): " + path;
        return -1;
    }
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ::unlink(path.c_str());
    mode_t old = ::umask(0177); // the socket is the server user's alone
    bool ok = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
              ::listen(fd, 128) == 0;
    ::umask(old);
    if (!ok) {
        error = errnoText("agent socket " + path);
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    return fd;
}

// The cgroup v1 `tasks` file beside `procsFile` (a cgroup.procs), or empty where there is none
// (cgroup v2). Moving a whole process through cgroup.procs takes the kernel's global lock of
// thread groups, whose writer waits for an RCU grace period when the lock was idle: 19 ms a move
// on this 2-core VM. Moving only the calling thread ("0" into `tasks`) skips that lock (Linux
// 6.0 and later; before, it costs what cgroup.procs costs): 0.8 ms. For a process with one
// thread, or a child just forked, that thread is the whole process.
std::string threadMoveFile(const std::string& procsFile)
{
    const std::string dir = cgroupDirOf(procsFile);
    if (dir.empty())
        return {};
    const std::string tasks = dir + "/tasks";
    return ::access(tasks.c_str(), W_OK) == 0 ? tasks : std::string();
}

bool singleThreaded()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("Threads:", 0) == 0)
            return std::atoi(line.c_str() + 8) == 1;
    return false;
}

std::string joinCgroups(const std::vector<std::string>& procsFiles)
{
    const bool oneThread = singleThreaded();
    for (const auto& procs : procsFiles) {
        const std::string tasks = oneThread ? threadMoveFile(procs) : std::string();
        const std::string& file = tasks.empty() ? procs : tasks;
        int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
        std::string pid = tasks.empty() ? std::to_string(::getpid()) : "0";
        bool ok = fd >= 0 && ::write(fd, pid.data(), pid.size()) == ssize_t(pid.size());
        int err = errno;
        if (fd >= 0)
            ::close(fd);
        if (!ok)
            return file + ": " + std::strerror(err);
    }
    return {};
}

int runSandbox(const LaunchConfig& original)
{
    ::setsid(); // detached: the sandbox outlives a restart of lizard-local
    LaunchConfig config = original;
    if (!config.slirp.empty()) {
        std::string error;
        config.blockedPrefixes = sandboxBlockedPrefixes(&error);
        if (!error.empty())
            return fail(error);
    }
    SandboxFds fds;
    if (config.allowList && !config.allowNames.empty()) {
        std::string error;
        fds.dnsUpstream = openDnsUpstream(config.dnsUpstream, &error);
        if (!error.empty())
            return fail(error);
    }
    fds.log = ::open((config.sandboxDir + "/agent.log").c_str(),
                     O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    std::string error;
    fds.listen = makeListener(config.socketPath, error);
    if (fds.listen < 0)
        return fail(error);
    int exitPipe[2] = {-1, -1};
    SlirpPipes& ready = config.slirpReady;
    if (!config.slirp.empty() && (::pipe2(exitPipe, O_CLOEXEC) != 0 || !openSlirpPipes(ready)))
        return fail(errnoText("pipe"));
    fds.slirpExit = exitPipe[1];
    // Before the cgroups: a freezer that pauses the sandbox must not freeze the daemon that its
    // processes' file operations wait on.
    QuotaFsLink quota;
    if (config.quotaBytes > 0) {
        quota = startQuotaFsDaemon(config.sandboxDir, fds.log, config.quotaBytes,
                                   config.quotaInodes, error);
        if (quota.daemon < 0)
            return fail(error);
        fds.quotaChannel = quota.channel;
        fds.lifeline = quota.lifeline;
    }
    auto stopQuota = [&] {
        if (quota.daemon > 0)
            ::kill(quota.daemon, SIGKILL);
    };
    // Before the cgroups: the idmap's helper process is no part of the sandbox.
    std::string usrNote;
    fds.hostUsr = openIdmappedHostUsr(config, &usrNote);
    if (fds.hostUsr < 0 && !usrNote.empty() && fds.log >= 0) {
        const std::string line = "lizard-agent: the host's /usr is not idmapped (" + usrNote +
                                 "): packages the host has cannot be upgraded or removed here\n";
        [[maybe_unused]] auto w = ::write(fds.log, line.data(), line.size());
    }
    // cgroup v2: PID 1 and slirp4netns start in the sandbox's group; the launcher stays out of
    // it. Otherwise (v1, or a kernel without CLONE_INTO_CGROUP) the launcher joins first and
    // they inherit it.
    int cgroupDir = openCgroupV2Dir(config.cgroupProcs);
    auto joinNow = [&] { return joinCgroups(config.cgroupProcs); };
    if (cgroupDir < 0) {
        if (auto e = joinNow(); !e.empty()) {
            stopQuota();
            return fail("joining cgroup: " + e);
        }
    }
    if (!config.workloadCgroupProcs.empty()) {
        // Without it the sandbox's commands share PID 1's group: correct, only less fair. Each
        // command's child, just forked and so with one thread, writes "0" into it (v1's `tasks`,
        // v2's cgroup.threads: a thread's move, cgroupfork.h).
        const std::string tasks = threadMoveFile(config.workloadCgroupProcs);
        fds.workloadCgroup = ::open((tasks.empty() ? config.workloadCgroupProcs : tasks).c_str(),
                                    O_WRONLY | O_CLOEXEC);
        if (fds.workloadCgroup < 0 && fds.log >= 0) {
            const std::string line = "lizard-agent: " + errnoText(config.workloadCgroupProcs) +
                                     ": commands share the agent's cpu cgroup\n";
            [[maybe_unused]] auto w = ::write(fds.log, line.data(), line.size());
        }
    }
    // Here, with the host's credentials: inside the namespaces no write could go below 0.
    lowerOomScore();

    auto initBody = [&](int statusFd) { return spawnSandboxInit(config, fds, statusFd); };
    auto child = forkIntoUserns(config, initBody, cgroupDir);
    if (cgroupDir >= 0 && child.pid < 0) {
        const int err = child.forkErrno;
        ::close(child.statusFd);
        ::close(cgroupDir);
        cgroupDir = -1;
        if (!intoCgroupUnsupported(err))
            child = UsernsChild{.error = "joining cgroup: " + std::string(std::strerror(err))};
        else if (auto e = joinNow(); !e.empty())
            child = UsernsChild{.error = "joining cgroup: " + e};
        else
            child = forkIntoUserns(config, initBody);
    }
    for (int fd : {exitPipe[1], ready.initRead, ready.initRelay, fds.dnsUpstream, fds.hostUsr,
                   fds.quotaChannel, fds.lifeline, fds.workloadCgroup}) {
        if (fd >= 0)
            ::close(fd);
    }
    if (!child.error.empty()) {
        stopQuota();
        ::unlink(config.socketPath.c_str());
        return fail(child.error);
    }
    std::string line;
    pid_t initPid = 0;
    if (readStatus(child.statusFd, line, kSetupTimeoutMs) && line.rfind("P ", 0) == 0)
        initPid = pid_t(std::stol(line.substr(2)));
    waitChild(child.pid);
    auto abort = [&](const std::string& message) {
        if (initPid > 0)
            ::kill(initPid, SIGKILL);
        stopQuota();
        ::unlink(config.socketPath.c_str());
        return fail(message);
    };
    if (initPid <= 0)
        return abort(line.size() > 2 ? line.substr(2) : "sandbox init did not start");
    Slirp slirp;
    if (exitPipe[0] >= 0) {
        // PID 1 moves to an inner user namespace (mountlock.h) only once slirp4netns is ready
        // (netguard.h), so this is still the namespace that owns the sandbox's network.
        int userns =
            ::open(("/proc/" + std::to_string(initPid) + "/ns/user").c_str(), O_RDONLY | O_CLOEXEC);
        if (userns < 0)
            return abort(errnoText("opening the sandbox's user namespace"));
        slirp = startSlirp(config, initPid, exitPipe[0], ready.slirpWrite, userns, cgroupDir);
        slirp.readyFd = ready.launcherRead;
        ::close(userns);
    }
    if (cgroupDir >= 0)
        ::close(cgroupDir);
    if (!readStatus(child.statusFd, line, kSetupTimeoutMs) || line != "R")
        return abort(line.size() > 2 ? line.substr(2) : "sandbox init exited during setup");
    bool network = slirp.pid > 0 && waitSlirpReady(slirp, kSetupTimeoutMs);
    nlohmann::json out{{"ok", true}, {"pid", initPid}, {"network", network}};
    if (quota.daemon > 0)
        out["quotaPid"] = quota.daemon;
    return report(out);
}

// Copies directory contents inside the namespace (owners map as in the sandbox). The
// directories are opened here, on the host, so their parents need not be searchable there.
int runCopy(const LaunchConfig& config)
{
    std::vector<std::pair<int, int>> fds;
    auto closeAll = [&] {
        for (auto [a, b] : fds) {
            ::close(a);
            ::close(b);
        }
    };
    for (const auto& [from, to] : config.copies) {
        int a = openDir(from);
        int b = a >= 0 ? openDir(to) : -1;
        if (a < 0 || b < 0) {
            std::string e = errnoText(a < 0 ? from : to);
            if (a >= 0)
                ::close(a);
            closeAll();
            return fail(e);
        }
        fds.emplace_back(a, b);
    }
    auto child = forkIntoUserns(config, [&](int statusFd) {
        std::string e = becomeNamespaceRoot(config.idMap);
        CopyStats stats;
        for (size_t i = 0; e.empty() && i < fds.size(); ++i)
            e = copyTreeContents(fds[i].first, fds[i].second, stats);
        sendStatus(statusFd, e.empty() ? "R " + std::to_string(stats.bytes) + " " +
                                             std::to_string(stats.reflinked)
                                       : "E " + e);
        return e.empty() ? 0 : 1;
    });
    closeAll();
    if (!child.error.empty())
        return fail(child.error);
    std::string line;
    bool got = readStatus(child.statusFd, line, 600000);
    waitChild(child.pid);
    unsigned long long bytes = 0, reflinked = 0;
    if (got && std::sscanf(line.c_str(), "R %llu %llu", &bytes, &reflinked) == 2)
        return report({{"ok", true}, {"bytes", bytes}, {"reflinked", reflinked}});
    return fail(got && line.size() > 2 ? line.substr(2) : "copy helper exited without a result");
}

// Measures the sandbox layer `config.target` inside a namespace with the sandbox's id map
// (usagewalk.h).
int runUsage(const LaunchConfig& config)
{
    const int fd = openDir(config.target);
    if (fd < 0)
        return fail(errnoText(config.target));
    auto child = forkIntoUserns(config, [&](int statusFd) {
        std::string e = becomeNamespaceRoot(config.idMap);
        const UsageTotals t = e.empty() ? measureTree(fd, config.timeoutMs) : UsageTotals{};
        sendStatus(statusFd, e.empty() ? "R " + std::to_string(t.bytes) + " " +
                                             std::to_string(t.files) + " " + (t.partial ? "1" : "0")
                                       : "E " + e);
        return e.empty() ? 0 : 1;
    });
    ::close(fd);
    if (!child.error.empty())
        return fail(child.error);
    std::string line;
    bool got = readStatus(child.statusFd, line, config.timeoutMs + 5000);
    waitChild(child.pid);
    unsigned long long bytes = 0, files = 0;
    int partial = 0;
    if (got && std::sscanf(line.c_str(), "R %llu %llu %d", &bytes, &files, &partial) == 3)
        return report(
            {{"ok", true}, {"bytes", bytes}, {"files", files}, {"partial", partial != 0}});
    return fail(got && line.size() > 2 ? line.substr(2) : "usage helper exited without a result");
}

// Lists what the sandbox changed against its template (changeswalk.h) inside a namespace with
// the sandbox's id map, or archives the changes or reads one file (changesarchive.h). The
// answer can be large: the child prints it on the tool's stdout itself, then reports "R" (a
// missing lower, such as a template since removed, counts as empty).
int runChanges(const LaunchConfig& config)
{
    std::vector<ChangeLayer> layers;
    std::vector<int> opened;
    auto closeAll = [&] {
        for (int fd : opened)
            ::close(fd);
    };
    for (const auto& paths : config.changeLayers) {
        ChangeLayer layer;
        layer.at = paths.at;
        layer.upper = openDir(paths.upper);
        if (layer.upper < 0) {
            const std::string e = errnoText(paths.upper);
            closeAll();
            return fail(e);
        }
        opened.push_back(layer.upper);
        for (const auto& lower : paths.lowers) {
            if (const int fd = openDir(lower); fd >= 0) {
                layer.lowers.push_back(fd);
                opened.push_back(fd);
            }
        }
        layers.push_back(std::move(layer));
    }
    const pid_t tool = ::getpid();
    auto child = forkIntoUserns(config, [&](int statusFd) {
        std::string e = becomeNamespaceRoot(config.idMap);
        // The walk dies with the tool: lizard-local ends a tool (a download whose client left)
        // by killing it. Set after the change of credentials, which clears it.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != tool)
            return 1;
        if (e.empty() && config.changesOp != "list") {
            e = config.changesOp == "archive" ? archiveChanges(layers, config.exclude, 1)
                : config.changesOp == "file"
                    ? readLayeredFile(layers, config.path, config.maxBytes, 1)
                    : "unknown changes op: " + config.changesOp;
            sendStatus(statusFd, e.empty() ? "R" : "E " + e);
            return e.empty() ? 0 : 1;
        }
        ChangeList list;
        if (e.empty())
            e = listChanges(layers, {config.exclude, config.limit, {}}, list);
        if (e.empty()) {
            const std::string text = changesJson(list);
            std::size_t done = 0;
            while (done < text.size()) {
                const ssize_t n = ::write(1, text.data() + done, text.size() - done);
                if (n < 0 && errno == EINTR)
                    continue;
                if (n <= 0)
                    break;
                done += std::size_t(n);
            }
            if (done < text.size())
                e = errnoText("writing the list");
        }
        sendStatus(statusFd, e.empty() ? "R" : "E " + e);
        return e.empty() ? 0 : 1;
    });
    closeAll();
    if (!child.error.empty())
        return fail(child.error);
    std::string line;
    const bool got = readStatus(child.statusFd, line, config.timeoutMs);
    waitChild(child.pid);
    if (got && line == "R")
        return 0;
    return fail(got && line.size() > 2 ? line.substr(2) : "changes helper exited without a result");
}

} // namespace

int runSeccompExport()
{
    std::string plain, watched;
    std::string e = exportSandboxSeccomp(false, plain);
    if (e.empty())
        e = exportSandboxSeccomp(true, watched);
    if (!e.empty())
        return fail(e);
    return report({{"ok", true}, {"plain", toHex(plain)}, {"diskWatched", toHex(watched)}});
}

int runLauncher(const LaunchConfig& config)
{
    if (config.mode == "sandbox")
        return runSandbox(config);
    if (config.mode == "template") {
        int fd = openDir(config.target);
        if (fd < 0)
            return fail(errnoText(config.target));
        // Probed as sandboxes will do it, on the host side: a root server's sandboxes get the
        // host's /usr idmapped where the kernel allows it, and need no usr-dirs layer then.
        std::string why;
        const int usr = openIdmappedHostUsr(config, &why);
        if (usr >= 0)
            ::close(usr);
        return runSimple(config, fd,
                         [&](int dirFd) { return buildTemplate(dirFd, config, usr >= 0); });
    }
    if (config.mode == "remove") {
        auto slash = config.target.find_last_of('/');
        if (slash == std::string::npos || slash + 1 >= config.target.size())
            return fail("remove needs an absolute path");
        int fd = openDir(slash == 0 ? "/" : config.target.substr(0, slash));
        if (fd < 0)
            return errno == ENOENT ? report({{"ok", true}}) : fail(errnoText(config.target));
        std::string name = config.target.substr(slash + 1);
        return runSimple(config, fd, [name](int dirFd) { return removeTreeAt(dirFd, name); });
    }
    if (config.mode == "copy")
        return runCopy(config);
    if (config.mode == "usage")
        return runUsage(config);
    if (config.mode == "changes")
        return runChanges(config);
    return fail("unknown mode: " + config.mode);
}

} // namespace lizard::agent
