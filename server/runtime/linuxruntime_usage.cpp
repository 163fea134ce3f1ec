// What the metrics sampler asks of the runtime beside the cgroup and /proc readers
// (sandboxusage.h): how full a sandbox's writable layer is.
#include "runtime/linuxruntime.h"

#include <sys/statvfs.h>

namespace lizard::runtime {

std::optional<std::uint64_t> LinuxRuntime::diskUsedBytes(const std::string& id)
{
    if (m_watch) {
        const DiskWatch::State s = m_watch->state(id);
        if (s.gb > 0)
            return s.bytes;
        return std::nullopt;
    }
    if (m_disks->sizeGb(id) <= 0)
        return std::nullopt;
    // The sandbox's directory is the mount of its ext4 image: the blocks in use there are its
    // layer (and lizard-local's small files beside it: logs, metrics).
    struct statvfs st
    {
    };
    if (::statvfs(sandboxDir(id).c_str(), &st) != 0 || st.f_blocks < st.f_bfree)
        return std::nullopt;
    return std::uint64_t(st.f_blocks - st.f_bfree) * st.f_frsize;
}

} // namespace lizard::runtime
