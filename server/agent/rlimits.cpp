#include "agent/rlimits.h"

#include "agent/id_map.h"
#include "agent/status_pipe.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
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

bool setLimit(int resource, rlim_t value)
{
    rlimit current{};
    if (::getrlimit(resource, &current) == 0 && current.rlim_max != RLIM_INFINITY &&
        current.rlim_max < value)
        value = current.rlim_max; // never above what the server itself was given
    const rlimit wanted{value, value};
    return ::setrlimit(resource, &wanted) == 0;
}

} // namespace

std::string applySandboxRlimits(const SandboxRlimits& limits)
{
    if (limits.pids > 0 && !setLimit(RLIMIT_NPROC, rlim_t(limits.pids)))
        return rlimitErrno("setrlimit(RLIMIT_NPROC)");
    // RLIMIT_DATA, not RLIMIT_AS: V8, the JVM and Go reserve far more address space than they
    // use (PROT_NONE, which RLIMIT_DATA does not count), so an address space limit breaks node
    // and JITs long before memory runs short. Data counts private writable memory: the heap,
    // anonymous mappings and thread stacks.
    if (limits.memoryMb > 0 && !setLimit(RLIMIT_DATA, rlim_t(limits.memoryMb) * 1024 * 1024))
        return rlimitErrno("setrlimit(RLIMIT_DATA)");
    return {};
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
