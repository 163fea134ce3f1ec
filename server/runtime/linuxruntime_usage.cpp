// What the metrics sampler asks of the runtime beside the cgroup and /proc readers
// (sandboxusage.h): how full a sandbox's writable layer is.
#include "runtime/agentping.h"
#include "runtime/linuxruntime.h"

#include <nlohmann/json.hpp>
#include <sys/statvfs.h>

namespace lizard::runtime {

namespace {

std::optional<std::uint64_t> usedBlocksOf(const std::string& path)
{
    struct statvfs st
    {
    };
    if (::statvfs(path.c_str(), &st) != 0 || st.f_blocks < st.f_bfree)
        return std::nullopt;
    return std::uint64_t(st.f_blocks - st.f_bfree) * st.f_frsize;
}

} // namespace

std::optional<std::uint64_t> LinuxRuntime::diskUsedBytes(const SandboxHandle& handle)
{
    const std::string& id = handle.id;
    // The quota file system is mounted only in the sandbox's mount namespace (PID 1, not
    // dumpable, keeps its /proc/PID/root from the host): its agent reads its root's statfs, an
    // overlay's that answers with the quota file system's figures.
    if (m_quota && m_quota->sizeGb(id) > 0) {
        const auto answer = askAgent(handle.socketPath, 1000, R"({"op":"ping","statfs":true})");
        const auto json = nlohmann::json::parse(answer.value_or(""), nullptr, false);
        if (json.is_object() && json.contains("usedBytes") &&
            json["usedBytes"].is_number_unsigned())
            return json["usedBytes"].get<std::uint64_t>();
        return std::nullopt;
    }
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
    return usedBlocksOf(sandboxDir(id));
}

} // namespace lizard::runtime
