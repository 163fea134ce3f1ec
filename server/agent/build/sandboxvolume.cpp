// The volume at /workspace (see sandboxroot.h).
#include "agent/build/sandboxroot.h"

#include <cerrno>
#include <cstring>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::agent {

std::string bindVolume(const std::string& root, int volumeFd, bool initOwner)
{
    const std::string target = root + "/workspace";
    // A file system restored from elsewhere could have put a symlink there: only a real
    // directory is a mount point (mount(2) would follow a link).
    if (::mkdir(target.c_str(), 0755) != 0 && errno != EEXIST)
        return "mkdir /workspace: " + std::string(std::strerror(errno));
    struct stat st
    {
    };
    if (::lstat(target.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        return "/workspace exists in the sandbox and is not a directory; the volume cannot be "
               "mounted there";
    const std::string source = "/proc/self/fd/" + std::to_string(volumeFd);
    if (auto e = mountOrError(source.c_str(), target, nullptr, MS_BIND, {}); !e.empty())
        return e;
    if (auto e = mountOrError(
            nullptr, target, nullptr,
            MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NODEV | lockedMountFlags(target), {});
        !e.empty())
        return e;
    if (initOwner && ::chown(target.c_str(), 1000, 1000) != 0)
        return "giving /workspace to the sandbox user: " + std::string(std::strerror(errno));
    return {};
}

} // namespace lizard::agent
