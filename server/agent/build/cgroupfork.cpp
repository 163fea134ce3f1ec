#include "agent/build/cgroupfork.h"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/sched.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace lizard::agent {

std::string cgroupDirOf(const std::string& procsFile)
{
    static const std::string kProcs = "/cgroup.procs";
    if (procsFile.size() <= kProcs.size() ||
        procsFile.compare(procsFile.size() - kProcs.size(), kProcs.size(), kProcs) != 0)
        return {};
    return procsFile.substr(0, procsFile.size() - kProcs.size());
}

int openCgroupV2Dir(const std::vector<std::string>& procsFiles)
{
    const std::string dir = procsFiles.size() == 1 ? cgroupDirOf(procsFiles.front()) : "";
    if (dir.empty())
        return -1;
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct statfs fs
    {
    };
    if (fd >= 0 && ::fstatfs(fd, &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC)
        return fd;
    if (fd >= 0)
        ::close(fd);
    return -1;
}

pid_t forkInto(int cgroupDirFd)
{
    if (cgroupDirFd < 0)
        return ::fork();
    clone_args args;
    std::memset(&args, 0, sizeof args);
    args.flags = CLONE_INTO_CGROUP;
    args.exit_signal = SIGCHLD;
    args.cgroup = std::uint64_t(cgroupDirFd);
    return pid_t(::syscall(SYS_clone3, &args, sizeof args));
}

bool intoCgroupUnsupported(int error)
{
    return error == ENOSYS || error == E2BIG || error == EINVAL;
}

} // namespace lizard::agent
