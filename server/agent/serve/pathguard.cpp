#include "agent/serve/pathguard.h"

#include <atomic>
#include <cerrno>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

int openat2NoMagic(const std::string& path, int flags, mode_t mode)
{
    open_how how{};
    how.flags = std::uint64_t(flags | O_CLOEXEC);
    how.mode = (flags & O_CREAT) ? mode : 0;
    how.resolve = RESOLVE_NO_MAGICLINKS;
    return int(::syscall(SYS_openat2, AT_FDCWD, path.c_str(), &how, sizeof how));
}

// Without openat2: a file reached through a magic link is one the sandbox's root does not
// contain, so the path the kernel gives for the descriptor does not lead back to it.
int openChecked(const std::string& path, int flags, mode_t mode)
{
    int fd = ::open(path.c_str(), flags | O_CLOEXEC, mode);
    if (fd < 0)
        return -1;
    std::string link = "/proc/self/fd/" + std::to_string(fd);
    char buf[4096];
    ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
    struct stat viaFd
    {
    };
    struct stat viaName
    {
    };
    bool same = n > 0 && buf[0] == '/' && ::fstat(fd, &viaFd) == 0;
    if (same) {
        buf[n] = '\0';
        same = ::stat(buf, &viaName) == 0 && viaName.st_dev == viaFd.st_dev &&
               viaName.st_ino == viaFd.st_ino;
    }
    if (!same) {
        ::close(fd);
        errno = ELOOP;
        return -1;
    }
    return fd;
}

std::string parentOf(const std::string& path)
{
    auto slash = path.find_last_of('/');
    return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

} // namespace

int openNoMagic(const std::string& path, int flags, mode_t mode)
{
    static std::atomic<bool> haveOpenat2{true};
    if (haveOpenat2.load(std::memory_order_relaxed)) {
        int fd = openat2NoMagic(path, flags, mode);
        if (fd >= 0 || errno != ENOSYS)
            return fd;
        haveOpenat2.store(false, std::memory_order_relaxed);
    }
    return openChecked(path, flags, mode);
}

int checkParent(const std::string& path)
{
    int fd = openNoMagic(parentOf(path), O_PATH | O_DIRECTORY);
    if (fd < 0)
        return errno;
    ::close(fd);
    return 0;
}

bool reachedThroughMagicLink(const std::string& path, int err)
{
    if (err != ELOOP)
        return false;
    // ELOOP also comes from a plain loop of links, which the kernel cannot open either.
    int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0)
        return false;
    ::close(fd);
    return true;
}

bool isMagicLink(const std::string& path)
{
    int fd = openNoMagic(path, O_PATH);
    if (fd >= 0) {
        ::close(fd);
        return false;
    }
    return reachedThroughMagicLink(path, errno); // else dangling: the text is the sandbox's own
}

std::string magicLinkMessage(const std::string& path)
{
    return path + ": the path goes through a /proc link to a process's files, which the files API "
                  "does not follow";
}

} // namespace lizard::agent
