// /proc and /sys as runc leaves them: files that describe or act on the host's kernel are
// hidden, and the tunables are read-only, whatever the sandbox's root could otherwise do there.
#include "agent/build/sandboxroot.h"

#include <cerrno>
#include <cstring>
#include <sys/mount.h>
#include <sys/stat.h>

namespace lizard::agent {

namespace {

// Hidden: kernel memory, the host's keys, timers and scheduler state (which leak other
// processes' activity), and firmware and hardware tables.
constexpr const char* kMasked[] = {
    "/proc/acpi",
    "/proc/asound",
    "/proc/kcore",
    "/proc/keys",
    "/proc/latency_stats",
    "/proc/timer_list",
    "/proc/timer_stats",
    "/proc/sched_debug",
    "/proc/scsi",
    "/sys/firmware",
    "/sys/devices/virtual/powercap",
};

// Read-only: kernel tunables and the magic SysRq key act on the whole host.
constexpr const char* kReadOnly[] = {
    "/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger",
};

std::string mask(const std::string& root, const std::string& path)
{
    const std::string target = root + path;
    struct stat st
    {
    };
    if (::lstat(target.c_str(), &st) != 0)
        return {}; // not on this kernel: nothing to hide
    if (S_ISDIR(st.st_mode))
        return mountOrError("tmpfs", target, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                            "size=0,mode=0555");
    return mountOrError((root + "/dev/null").c_str(), target, nullptr, MS_BIND, {});
}

std::string readOnly(const std::string& root, const std::string& path)
{
    const std::string target = root + path;
    struct stat st
    {
    };
    if (::lstat(target.c_str(), &st) != 0)
        return {};
    if (auto e = mountOrError(target.c_str(), target, nullptr, MS_BIND | MS_REC, {}); !e.empty())
        return e;
    return mountOrError(nullptr, target, nullptr,
                        MS_BIND | MS_REMOUNT | MS_RDONLY | lockedMountFlags(target), {});
}

} // namespace

std::string maskKernelFiles(const std::string& root)
{
    for (const char* path : kMasked) {
        if (auto e = mask(root, path); !e.empty())
            return e;
    }
    for (const char* path : kReadOnly) {
        if (auto e = readOnly(root, path); !e.empty())
            return e;
    }
    return {};
}

} // namespace lizard::agent
