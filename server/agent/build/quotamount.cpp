#include "agent/build/quotamount.h"

#include "agent/quotafs/quotafsdaemon.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

std::string quotaError(const std::string& what)
{
    return what + ": " + std::strerror(errno);
}

int fsconfigString(int fs, const char* key, const std::string& value)
{
    return ::fsconfig(fs, FSCONFIG_SET_STRING, key, value.c_str(), 0);
}

int fsconfigFlag(int fs, const char* key)
{
    return ::fsconfig(fs, FSCONFIG_SET_FLAG, key, nullptr, 0);
}

bool sendFds(int channel, int dev, int userns)
{
    char byte = 'M';
    iovec iov{&byte, 1};
    alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))]{};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(2 * sizeof(int));
    const int fds[2] = {dev, userns};
    std::memcpy(CMSG_DATA(c), fds, sizeof fds);
    return ::sendmsg(channel, &msg, MSG_NOSIGNAL) == 1;
}

// The daemon's answer: "R", or "E <why>".
std::string awaitDaemon(int channel)
{
    pollfd p{channel, POLLIN, 0};
    if (::poll(&p, 1, quotafs::kQuotaFsSetupTimeoutMs) != 1)
        return "the quota file system's daemon did not answer";
    char text[512];
    const ssize_t n = ::recv(channel, text, sizeof text - 1, 0);
    if (n <= 0)
        return "the quota file system's daemon ended before it served";
    text[n] = '\0';
    if (text[0] == 'R')
        return {};
    return n > 2 ? std::string(text + 2) : std::string("the quota file system failed");
}

} // namespace

QuotaFsLink startQuotaFsDaemon(const std::string& dir, int log, std::int64_t bytes,
                               std::int64_t inodes, std::string& error)
{
    QuotaFsLink link;
    int channel[2] = {-1, -1}, lifeline[2] = {-1, -1};
    const int backing = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (backing < 0 || ::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, channel) != 0 ||
        ::pipe2(lifeline, O_CLOEXEC) != 0) {
        error = quotaError("starting the quota file system's daemon");
        for (int fd : {backing, channel[0], channel[1], lifeline[0], lifeline[1]}) {
            if (fd >= 0)
                ::close(fd);
        }
        return link;
    }
    const std::string b = std::to_string(bytes), i = std::to_string(inodes);
    const pid_t pid = ::fork();
    if (pid == 0) {
        // Its own descriptors at 3..6, nothing else of the launcher's.
        const int keep[4] = {backing, channel[1], lifeline[1], log};
        int parked[4];
        for (int k = 0; k < 4; ++k)
            parked[k] = keep[k] >= 0 ? ::fcntl(keep[k], F_DUPFD_CLOEXEC, 100) : -1;
        ::close_range(3, 99, 0);
        for (int k = 0; k < 4; ++k) {
            const int target = 3 + k;
            if (parked[k] < 0)
                parked[k] = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
            ::dup2(parked[k], target);
        }
        ::close_range(7, ~0U, 0);
        const char* argv[] = {"lizard-agent", "quotafs", b.c_str(), i.c_str(), nullptr};
        ::execv("/proc/self/exe", const_cast<char* const*>(argv));
        ::_exit(127);
    }
    ::close(backing);
    ::close(channel[1]);
    ::close(lifeline[1]);
    if (pid < 0) {
        error = quotaError("fork of the quota file system's daemon");
        ::close(channel[0]);
        ::close(lifeline[0]);
        return link;
    }
    link.daemon = pid;
    link.channel = channel[0];
    link.lifeline = lifeline[0];
    return link;
}

int mountQuotaFs(int channel, int dirFd, std::string& error)
{
    // Opened in this user namespace: the kernel mounts FUSE only with a /dev/fuse of the
    // mounting namespace.
    const int dev = ::open("/dev/fuse", O_RDWR | O_CLOEXEC);
    if (dev < 0) {
        error = quotaError("/dev/fuse");
        return -1;
    }
    const int userns = ::open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
    const int fs = ::fsopen("fuse", FSOPEN_CLOEXEC);
    int mnt = -1;
    // default_permissions: the kernel checks modes and owners as for a local file system, and
    // the daemon (root of the namespace) only carries out what passed. allow_other: every uid
    // of the sandbox, not only its root, may use it (overlayfs does, as the mounter).
    if (userns < 0 || fs < 0 || fsconfigString(fs, "source", "lizard-quotafs") != 0 ||
        fsconfigString(fs, "subtype", "lizard-quotafs") != 0 ||
        fsconfigString(fs, "fd", std::to_string(dev)) != 0 ||
        fsconfigString(fs, "rootmode", "40000") != 0 || fsconfigString(fs, "user_id", "0") != 0 ||
        fsconfigString(fs, "group_id", "0") != 0 || fsconfigFlag(fs, "default_permissions") != 0 ||
        fsconfigFlag(fs, "allow_other") != 0 ||
        ::fsconfig(fs, FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) != 0) {
        error = quotaError("mounting the quota file system");
    } else if (mnt = ::fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
               mnt < 0) {
        error = quotaError("fsmount of the quota file system");
    } else if (!sendFds(channel, dev, userns)) {
        error = quotaError("handing /dev/fuse to the quota file system's daemon");
    } else if (error = awaitDaemon(channel);
               error.empty() &&
               ::move_mount(mnt, "", dirFd, "",
                            MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0) {
        error = quotaError("attaching the quota file system");
    }
    for (int fd : {dev, userns, fs}) {
        if (fd >= 0)
            ::close(fd);
    }
    if (!error.empty()) {
        if (mnt >= 0)
            ::close(mnt);
        return -1;
    }
    return mnt;
}

} // namespace lizard::agent
