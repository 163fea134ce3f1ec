#pragma once
// Small helpers the QuotaFs request handlers share.

#include <cstring>
#include <linux/fuse.h>
#include <string>
#include <sys/stat.h>

namespace lizard::agent::quotafs {

// How long the kernel may keep entries, negative entries and attributes: only this mount
// changes the backing directory while the sandbox runs (host-side copies happen before its start
// or while it is frozen and read only), so they never go stale.
inline constexpr std::uint64_t kCacheSeconds = 24 * 3600;
inline constexpr std::size_t kNameMax = 255;
inline constexpr std::int64_t kBlock = 4096;

// One path component the kernel may name: not empty, no '/', not "." or "..".
inline bool validName(const char* name)
{
    const std::size_t n = std::strlen(name);
    return n > 0 && n <= kNameMax && std::strchr(name, '/') == nullptr &&
           std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0;
}

// The entry of descriptor `fd` in /proc/self/fd (the daemon's working directory).
inline std::string procEntry(int fd)
{
    return std::to_string(fd);
}

inline void fillAttr(fuse_attr& a, const struct stat& st)
{
    a = {};
    a.ino = st.st_ino;
    a.size = std::uint64_t(st.st_size);
    a.blocks = std::uint64_t(st.st_blocks);
    a.atime = std::uint64_t(st.st_atim.tv_sec);
    a.mtime = std::uint64_t(st.st_mtim.tv_sec);
    a.ctime = std::uint64_t(st.st_ctim.tv_sec);
    a.atimensec = std::uint32_t(st.st_atim.tv_nsec);
    a.mtimensec = std::uint32_t(st.st_mtim.tv_nsec);
    a.ctimensec = std::uint32_t(st.st_ctim.tv_nsec);
    a.mode = st.st_mode;
    a.nlink = std::uint32_t(st.st_nlink);
    a.uid = st.st_uid;
    a.gid = st.st_gid;
    a.rdev = std::uint32_t(st.st_rdev);
    a.blksize = std::uint32_t(st.st_blksize);
}

inline std::int64_t roundUp(std::int64_t n, std::int64_t to)
{
    return (n + to - 1) / to * to;
}

} // namespace lizard::agent::quotafs
