// A minimal /dev: a few host devices bound in, a private devpts and /dev/shm.
#include "agent/build/sandboxroot.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::agent {

std::string setupDev(const std::string& root, int shmMb)
{
    const std::string dev = root + "/dev";
    // /dev holds only device nodes, links and two mount points; root of the sandbox could
    // still fill it, so it is as small as that allows.
    if (auto e = mountOrError("tmpfs", dev, "tmpfs", MS_NOSUID | MS_NOEXEC,
                              "mode=755,size=1m,nr_inodes=256");
        !e.empty())
        return e;
    for (const char* name : {"null", "zero", "full", "random", "urandom", "tty"}) {
        std::string target = dev + "/" + name;
        int fd = ::open(target.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0666);
        if (fd < 0)
            return target + ": " + std::strerror(errno);
        ::close(fd);
        if (auto e =
                mountOrError((std::string("/dev/") + name).c_str(), target, nullptr, MS_BIND, {});
            !e.empty())
            return e;
    }
    if (::mkdir((dev + "/pts").c_str(), 0755) != 0 || ::mkdir((dev + "/shm").c_str(), 01777) != 0)
        return "mkdir in /dev: " + std::string(std::strerror(errno));
    if (auto e = mountOrError("devpts", dev + "/pts", "devpts", MS_NOSUID | MS_NOEXEC,
                              "newinstance,ptmxmode=0666,mode=0620");
        !e.empty())
        return e;
    // One inode per 4 KiB page of the size: empty files, which take no pages, would otherwise
    // hold kernel memory without bound.
    const long mb = shmMb > 0 ? shmMb : kDefaultShmMb;
    if (auto e = mountOrError("tmpfs", dev + "/shm", "tmpfs", MS_NOSUID | MS_NODEV,
                              "mode=1777,size=" + std::to_string(mb) +
                                  "m,nr_inodes=" + std::to_string(mb * 256));
        !e.empty())
        return e;
    const std::pair<const char*, const char*> links[] = {{"pts/ptmx", "ptmx"},
                                                         {"/proc/self/fd", "fd"},
                                                         {"/proc/self/fd/0", "stdin"},
                                                         {"/proc/self/fd/1", "stdout"},
                                                         {"/proc/self/fd/2", "stderr"}};
    for (const auto& [target, name] : links) {
        if (::symlink(target, (dev + "/" + name).c_str()) != 0)
            return std::string("symlink /dev/") + name + ": " + std::strerror(errno);
    }
    return {};
}

} // namespace lizard::agent
