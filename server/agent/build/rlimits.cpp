#include "agent/build/rlimits.h"

#include "agent/build/idmap.h"
#include "agent/build/statuspipe.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <limits>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

std::string rlimitErrno(const std::string& what)
{
    return what + ": " + std::strerror(errno);
}

// Never above what the server itself was given.
rlim_t clampToHard(int resource, rlim_t value)
{
    rlimit current{};
    if (::getrlimit(resource, &current) == 0 && current.rlim_max != RLIM_INFINITY &&
        current.rlim_max < value)
        return current.rlim_max;
    return value;
}

bool setLimit(int resource, rlim_t value)
{
    const rlimit wanted{value, value};
    return ::setrlimit(resource, &wanted) == 0;
}

// AddressSanitizer maps its shadow memory before main(): terabytes, private and writable
// though never touched, and RLIMIT_DATA counts them. Under any real limit every later mmap of
// the process fails with ENOMEM, so the sanitizer's allocator dies at its next new region
// (the first allocation of a new size, anywhere in the sandbox's setup). In ASan builds the
// agent's own processes therefore get the data size they have now on top of the limit (their
// own heap stays bounded by it), and every program the sandbox runs gets the limit itself,
// set by restoreProgramDataLimit() in the forked child just before execve: the new image has
// no shadow. Normal builds set the limit once, here, for everything.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kShadowCountsAsData = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kShadowCountsAsData = true;
#else
constexpr bool kShadowCountsAsData = false;
#endif
#else
constexpr bool kShadowCountsAsData = false;
#endif

// RLIMIT_DATA for the programs the sandbox runs, when it differs from the agent's own; 0: none.
// Set before PID 1 is forked, so PID 1 and its children inherit it.
rlim_t g_programDataLimit = 0;

// VmData of /proc/self/status in bytes, or 0 when it cannot be read.
rlim_t ownDataBytes()
{
    std::ifstream in("/proc/self/status");
    std::string key;
    unsigned long long kb = 0;
    while (in >> key) {
        if (key == "VmData:" && in >> kb)
            return rlim_t(kb) * 1024;
        in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    return 0;
}

bool writeOomScore(int value)
{
    const int fd = ::open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const std::string text = std::to_string(value);
    const bool ok = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
    ::close(fd);
    return ok;
}

int readOomScore()
{
    int value = 0;
    std::ifstream("/proc/self/oom_score_adj") >> value;
    return value;
}

} // namespace

int lowerOomScore()
{
    if (writeOomScore(-1000))
        return -1000;
    // The floor an unprivileged write may reach (oom_score_adj_min) is not readable: search
    // between -1000 (refused) and the current value (allowed).
    int refused = -1000, allowed = readOomScore();
    while (allowed - refused > 1) {
        const int mid = refused + (allowed - refused) / 2;
        if (writeOomScore(mid))
            allowed = mid;
        else
            refused = mid;
    }
    writeOomScore(allowed);
    return allowed;
}

std::string applySandboxRlimits(const SandboxRlimits& limits)
{
    if (limits.pids > 0 && !setLimit(RLIMIT_NPROC, rlim_t(limits.pids)))
        return rlimitErrno("setrlimit(RLIMIT_NPROC)");
    // RLIMIT_DATA, not RLIMIT_AS: V8, the JVM and Go reserve far more address space than they
    // use (PROT_NONE, which RLIMIT_DATA does not count), so an address space limit breaks node
    // and JITs long before memory runs short. Data counts private writable memory: the heap,
    // anonymous mappings and thread stacks.
    if (limits.memoryMb <= 0)
        return {};
    const rlim_t data = clampToHard(RLIMIT_DATA, rlim_t(limits.memoryMb) * 1024 * 1024);
    rlim_t own = data;
    if (kShadowCountsAsData) {
        const rlim_t shadow = ownDataBytes();
        if (shadow == 0)
            return "reading VmData of /proc/self/status";
        own = clampToHard(RLIMIT_DATA, data + shadow);
        g_programDataLimit = data;
    }
    if (!setLimit(RLIMIT_DATA, own))
        return rlimitErrno("setrlimit(RLIMIT_DATA)");
    return {};
}

void restoreProgramDataLimit()
{
    if (kShadowCountsAsData && g_programDataLimit > 0)
        setLimit(RLIMIT_DATA, g_programDataLimit);
}

int enterBoundedUserns(const LaunchConfig& config, int statusFd)
{
    if (config.rlimits.pids <= 0 && config.rlimits.memoryMb <= 0)
        return -1;
    if (config.idMap.kind == "root") {
        // A root server's launcher child is host root, unmapped in the first namespace, so it
        // may not create a nested one (its euid must be mapped there), and it must keep its
        // host credentials to open the data directory. Root has cgroups for the sandbox's
        // whole pids bound; the rlimits still bound each uid and each process.
        if (std::string e = applySandboxRlimits(config.rlimits); !e.empty()) {
            sendStatus(statusFd, "E " + e);
            return 1;
        }
        return -1;
    }
    int toParent[2], toChild[2];
    if (::pipe2(toParent, O_CLOEXEC) != 0 || ::pipe2(toChild, O_CLOEXEC) != 0) {
        sendStatus(statusFd, "E " + rlimitErrno("pipe"));
        return 1;
    }
    pid_t pid = ::fork();
    if (pid == 0) {
        ::close(toParent[0]);
        ::close(toChild[1]);
        // The namespace's bound is the creator's RLIMIT_NPROC when it is created.
        std::string e = applySandboxRlimits(config.rlimits);
        if (e.empty() && ::unshare(CLONE_NEWUSER) != 0)
            e = rlimitErrno("unshare(CLONE_NEWUSER) for the pids bound");
        if (!e.empty()) {
            sendStatus(statusFd, "E " + e);
            ::_exit(1);
        }
        char c = 'u';
        [[maybe_unused]] auto w = ::write(toParent[1], &c, 1);
        if (::read(toChild[0], &c, 1) != 1 || c != 'g')
            ::_exit(1);
        ::close(toParent[1]);
        ::close(toChild[0]);
        return -1;
    }
    ::close(toParent[1]);
    ::close(toChild[0]);
    if (pid < 0) {
        sendStatus(statusFd, "E " + rlimitErrno("fork"));
        return 1;
    }
    std::string error;
    char c = 0;
    if (::read(toParent[0], &c, 1) == 1) {
        // 1:1 onto the first namespace: files, uids and the template stay as they are.
        const std::string proc = "/proc/" + std::to_string(pid);
        error = writeProcFile(proc + "/uid_map", identityMap("/proc/self/uid_map"));
        if (error.empty())
            error = writeProcFile(proc + "/gid_map", identityMap("/proc/self/gid_map"));
        c = 'g';
        if (error.empty() && ::write(toChild[1], &c, 1) != 1)
            error = rlimitErrno("waking the sandbox setup");
    }
    ::close(toParent[0]);
    ::close(toChild[1]);
    if (!error.empty()) {
        sendStatus(statusFd, "E nested user namespace: " + error);
        ::kill(pid, SIGKILL);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!error.empty())
        return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

} // namespace lizard::agent
