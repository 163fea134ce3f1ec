#include "agent/build/sandboxinit.h"

#include "agent/build/allowpolicy.h"
#include "agent/build/confinement.h"
#include "agent/build/idmap.h"
#include "agent/build/mountlock.h"
#include "agent/build/netguard.h"
#include "agent/build/pidcounter.h"
#include "agent/build/quotamount.h"
#include "agent/build/rlimits.h"
#include "agent/build/sandboxroot.h"
#include "agent/build/statuspipe.h"
#include "agent/serve/agentserver.h"
#include "agent/serve/execspawn.h"
#include "agent/serve/lifeline.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

std::string bringUpLoopback()
{
    int s = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return std::string("socket: ") + std::strerror(errno);
    ifreq ifr{};
    std::strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
    bool ok = ::ioctl(s, SIOCGIFFLAGS, &ifr) == 0;
    ifr.ifr_flags = short(ifr.ifr_flags | IFF_UP | IFF_RUNNING);
    ok = ok && ::ioctl(s, SIOCSIFFLAGS, &ifr) == 0;
    int err = errno;
    ::close(s);
    return ok ? std::string() : std::string("bringing up lo: ") + std::strerror(err);
}

// Moves `fd` to number `target` (close-on-exec kept), or leaves -1 alone.
int placeFd(int fd, int target)
{
    if (fd < 0)
        return -1;
    ::dup3(fd, target, O_CLOEXEC);
    return target;
}

[[noreturn]] void sandboxMain(const LaunchConfig& config, SandboxFds fds, int statusFd)
{
    auto die = [&](const std::string& message) {
        sendStatus(statusFd, "E " + message);
        ::_exit(1);
    };
    ::setsid();
    startPidsAfter(config.pidFloor);
    tuneSandboxNetwork(config);
    if (auto e = setupSandboxRoot({fds.templateRoot, fds.usrDirs, fds.usrLocal, fds.hostUsr},
                                  fds.sandboxDir, fds.layer, fds.volume, config.volumeInitOwner,
                                  config.shmMb);
        !e.empty())
        die(e);
    if (::sethostname(config.hostname.data(), config.hostname.size()) != 0)
        die(std::string("sethostname: ") + std::strerror(errno));
    if (auto e = bringUpLoopback(); !e.empty())
        die(e);
    // Before anything of the sandbox runs, and while PID 1 is dumpable (netguard.h).
    if (auto e = installNetGuard(config); !e.empty())
        die("blocking host addresses: " + e);
    if (auto e = installAllowList(config, fds.dnsUpstream, fds.log); !e.empty())
        die("allowedHosts: " + e);

    int devNull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devNull < 0)
        die(std::string("/dev/null: ") + std::strerror(errno));
    ::dup2(devNull, 0);
    ::dup2(devNull, 1);
    ::dup2(fds.log >= 0 ? fds.log : devNull, 2);
    // Park the descriptors we keep high, then put them at 3, 4, 5 and close everything else.
    int listenFd = ::fcntl(fds.listen, F_DUPFD_CLOEXEC, 100);
    int exitFd = fds.slirpExit >= 0 ? ::fcntl(fds.slirpExit, F_DUPFD_CLOEXEC, 100) : -1;
    int status = ::fcntl(statusFd, F_DUPFD_CLOEXEC, 100);
    int lifeline = fds.lifeline >= 0 ? ::fcntl(fds.lifeline, F_DUPFD_CLOEXEC, 100) : -1;
    int workload = fds.workloadCgroup >= 0 ? ::fcntl(fds.workloadCgroup, F_DUPFD_CLOEXEC, 100) : -1;
    ::close_range(3, 99, 0);
    listenFd = placeFd(listenFd, 3);
    exitFd = placeFd(exitFd, 4);
    status = placeFd(status, 5);
    lifeline = placeFd(lifeline, 6);
    setWorkloadCgroup(placeFd(workload, 7));
    ::close_range(8, ~0U, 0);

    if (auto e = lockMounts(); !e.empty()) {
        sendStatus(status, "E locking the sandbox's mounts: " + e);
        ::_exit(1);
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    ::sigprocmask(SIG_BLOCK, &set, nullptr);
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);

    std::set_terminate([] {
        std::fprintf(stderr, "lizard-agent: fatal: uncaught exception\n");
        std::abort();
    });
    // Last, so that nothing above needs what it takes away; before any request is served,
    // so that every process the sandbox ever runs inherits it.
    if (auto e = confineSandbox(config.diskWatched, config.seccompProgram); !e.empty()) {
        sendStatus(status, "E " + e);
        ::_exit(1);
    }
    static AgentContext context;
    context.envs.set(config.envs);
    context.singleUid = config.idMap.kind == "single";
    context.lease.renew(config.endAtMs, config.orphanGraceMs);
    if (!context.lease.start()) {
        sendStatus(status, "E no thread for the lease watchdog");
        ::_exit(1);
    }
    if (lifeline >= 0 && !watchLifeline(lifeline)) {
        sendStatus(status, "E no thread for the quota file system's lifeline");
        ::_exit(1);
    }
    sendStatus(status, "R");
    ::close(status);
    runAgentServer(listenFd, context);
}

} // namespace

int spawnSandboxInit(const LaunchConfig& config, const SandboxFds& fds, int statusFd)
{
    if (int rc = enterBoundedUserns(config, statusFd); rc >= 0)
        return rc;
    int flags = CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET | CLONE_NEWPID;
    if (::unshare(flags | CLONE_NEWCGROUP) != 0 && ::unshare(flags) != 0) {
        sendStatus(statusFd, std::string("E unshare: ") + std::strerror(errno));
        return 1;
    }
    // Opened after the mount namespace exists (overlay refuses layers of another namespace)
    // and before dropping the host credentials (the data dir may sit under a 0700 home).
    SandboxFds all = fds;
    all.templateRoot = ::open(config.templateRoot.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    all.usrDirs = ::open(config.templateUsrDirs.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    all.usrLocal = ::open(config.templateUsrLocal.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    all.sandboxDir = ::open(config.sandboxDir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (!config.volumeDir.empty())
        all.volume = ::open(config.volumeDir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (all.templateRoot < 0 || all.usrDirs < 0 || all.usrLocal < 0 || all.sandboxDir < 0 ||
        (!config.volumeDir.empty() && all.volume < 0)) {
        sendStatus(statusFd,
                   std::string("E opening template or sandbox directory: ") + std::strerror(errno));
        return 1;
    }
    if (auto e = becomeNamespaceRoot(config.idMap); !e.empty()) {
        sendStatus(statusFd, "E " + e);
        return 1;
    }
    if (all.quotaChannel >= 0) {
        std::string e;
        all.layer = mountQuotaFs(all.quotaChannel, all.sandboxDir, e);
        ::close(all.quotaChannel);
        all.quotaChannel = -1;
        if (all.layer < 0) {
            sendStatus(statusFd, "E disk quota: " + e);
            return 1;
        }
    }
    pid_t pid = ::fork();
    if (pid == 0)
        sandboxMain(config, all, statusFd);
    if (pid < 0) {
        sendStatus(statusFd, std::string("E fork: ") + std::strerror(errno));
        return 1;
    }
    sendStatus(statusFd, "P " + std::to_string(pid));
    return 0;
}

} // namespace lizard::agent
