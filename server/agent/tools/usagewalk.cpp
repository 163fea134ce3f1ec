#include "agent/tools/usagewalk.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <set>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace lizard::agent {

namespace {

using Clock = std::chrono::steady_clock;

struct Walk
{
    dev_t dev = 0;
    Clock::time_point deadline;
    std::size_t maxDepth = 0;
    std::set<std::pair<dev_t, ino_t>> linked; // inodes with more than one link, counted once
    UsageTotals totals;
    unsigned sinceClockCheck = 0;
    bool timedOut = false;

    bool outOfTime()
    {
        if (timedOut || ++sinceClockCheck < 256)
            return timedOut;
        sinceClockCheck = 0;
        timedOut = Clock::now() > deadline;
        totals.partial = totals.partial || timedOut;
        return timedOut;
    }

    void count(const struct stat& st)
    {
        if (!S_ISDIR(st.st_mode) && st.st_nlink > 1 &&
            !linked.insert({st.st_dev, st.st_ino}).second)
            return;
        totals.bytes += std::uint64_t(st.st_blocks) * 512;
        ++totals.files;
    }

    // `fd` is an open directory on `dev`; closes it.
    void directory(int fd, std::size_t depth)
    {
        DIR* d = ::fdopendir(fd);
        if (!d) {
            ::close(fd);
            totals.partial = true;
            return;
        }
        while (dirent* e = ::readdir(d)) {
            if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0)
                continue;
            if (outOfTime())
                break;
            struct stat st;
            if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                continue; // removed meanwhile
            if (st.st_dev != dev)
                continue; // a mount point: not this layer's space
            count(st);
            if (!S_ISDIR(st.st_mode))
                continue;
            if (depth + 1 > maxDepth) {
                totals.partial = true;
                continue;
            }
            const int child =
                ::openat(::dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child < 0) {
                totals.partial = totals.partial || errno != ENOENT;
                continue;
            }
            directory(child, depth + 1);
        }
        ::closedir(d);
    }
};

} // namespace

UsageTotals measureTree(int dirFd, int timeoutMs)
{
    Walk walk;
    walk.deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    // Each level holds one descriptor: a deeper tree than the descriptors allow is cut.
    rlimit nofile{};
    ::getrlimit(RLIMIT_NOFILE, &nofile);
    nofile.rlim_cur = nofile.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &nofile);
    walk.maxDepth = nofile.rlim_cur > 100064 ? 100000 : std::size_t(nofile.rlim_cur) - 64;
    const int fd = ::openat(dirFd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || ::fstat(fd, &st) != 0) {
        if (fd >= 0)
            ::close(fd);
        walk.totals.partial = true;
        return walk.totals;
    }
    walk.dev = st.st_dev;
    walk.count(st);
    walk.directory(fd, 0);
    return walk.totals;
}

} // namespace lizard::agent
