#include "agent/build/slirp.h"

#include "agent/build/cgroupfork.h"
#include "agent/build/statuspipe.h"

#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <string>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace lizard::agent {

bool openSlirpPipes(SlirpPipes& pipes)
{
    int ready[2], relay[2];
    if (::pipe2(ready, O_CLOEXEC) != 0)
        return false;
    if (::pipe2(relay, O_CLOEXEC) != 0) {
        ::close(ready[0]);
        ::close(ready[1]);
        return false;
    }
    pipes = {ready[1], ready[0], relay[1], relay[0]};
    return true;
}

Slirp startSlirp(const LaunchConfig& config, pid_t initPid, int exitReadFd, int readyWriteFd,
                 int usernsFd, int cgroupDirFd)
{
    Slirp out;
    // slirp4netns parses the sandbox's packets as the server's user (root, for a root server)
    // in the host's network namespace: it runs in its own mount namespace without the
    // host's file system (--enable-sandbox) and under its own seccomp filter.
    std::vector<std::string> args{
        config.slirp,       "--configure",      "--mtu=65520", "--disable-host-loopback",
        "--enable-sandbox", "--enable-seccomp", "--exit-fd=3", "--ready-fd=4"};
    args.push_back("--userns-path=/proc/self/fd/5");
    args.push_back(std::to_string(initPid));
    args.push_back("tap0");
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = forkInto(cgroupDirFd);
    if (pid == 0) {
        // slirp4netns's own sandbox makes only "/" private before it detaches the old root.
        // As root, in the host's user namespace, the detach of the mounts below the other
        // shared mounts (/run, /dev, /sys on systemd hosts; /run/netns/<name> of `ip netns`)
        // would propagate back and unmount them on the host. In a mount namespace that is
        // private through and through, every unmount of its stays its own. (An ordinary user
        // may not unshare here; slirp4netns then unshares in the sandbox's user namespace,
        // whose mounts do not propagate back.)
        if (::unshare(CLONE_NEWNS) == 0)
            ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr);
        int devNull = ::open("/dev/null", O_RDWR);
        ::dup2(devNull, 0);
        ::dup2(devNull, 1);
        ::dup2(devNull, 2);
        // dup2 clears close-on-exec on the copies.
        int exitFd = ::fcntl(exitReadFd, F_DUPFD, 10);
        int readyFd = ::fcntl(readyWriteFd, F_DUPFD, 10);
        int userns = ::fcntl(usernsFd, F_DUPFD, 10);
        ::dup2(exitFd, 3);
        ::dup2(readyFd, 4);
        ::dup2(userns, 5);
        ::close_range(6, ~0U, 0);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(readyWriteFd);
    ::close(exitReadFd);
    if (pid > 0)
        out.pid = pid;
    return out;
}

bool waitSlirpReady(Slirp& slirp, int timeoutMs)
{
    pollfd p{slirp.readyFd, POLLIN, 0};
    char c = 0;
    bool ok = ::poll(&p, 1, timeoutMs) == 1 && ::read(slirp.readyFd, &c, 1) == 1;
    ::close(slirp.readyFd);
    slirp.readyFd = -1;
    if (!ok) {
        ::kill(slirp.pid, SIGKILL);
        ::waitpid(slirp.pid, nullptr, 0);
        slirp.pid = -1;
    }
    return ok;
}

} // namespace lizard::agent
