#pragma once
// What a quota'd sandbox's writable layer holds and may hold: allocated bytes (st_blocks * 512,
// hard links once) and inodes, against the bounds of its disk (diskGb GiB; 65536 inodes per GiB,
// as ext4 would format an image of that size). Lock-free: every request thread of the daemon
// reserves and settles here.

#include <atomic>
#include <cstdint>

namespace lizard::agent::quotafs {

struct QuotaLimits
{
    std::int64_t bytes = 0;
    std::int64_t inodes = 0;
};

class QuotaAccount
{
public:
    // `usedBytes` and `usedInodes`: what the layer held when the daemon started (a walk).
    QuotaAccount(QuotaLimits limits, std::int64_t usedBytes, std::int64_t usedInodes);

    // Takes `n` bytes if they fit under the bound; false (nothing taken) otherwise.
    bool reserveBytes(std::int64_t n);
    // Unconditional: the layer grew (n > 0) or shrank (n < 0) by what the file system says.
    void addBytes(std::int64_t n) { m_bytes.fetch_add(n, std::memory_order_relaxed); }
    // An inode for a new file, directory or link. A whiteout (overlayfs records a deletion of a
    // lower file with one) may use a reserve past the bound, so that deleting stays possible in
    // a full layer; its size is bounded too (whiteoutReserve()).
    bool takeInode(bool whiteout);
    void freeInodes(std::int64_t n) { m_inodes.fetch_sub(n, std::memory_order_relaxed); }

    std::int64_t usedBytes() const { return m_bytes.load(std::memory_order_relaxed); }
    std::int64_t usedInodes() const { return m_inodes.load(std::memory_order_relaxed); }
    std::int64_t freeBytes() const;
    std::int64_t freeInodes() const;
    const QuotaLimits& limits() const { return m_limits; }
    std::int64_t whiteoutReserve() const { return m_whiteoutReserve; }

private:
    const QuotaLimits m_limits;
    const std::int64_t m_whiteoutReserve;
    std::atomic<std::int64_t> m_bytes;
    std::atomic<std::int64_t> m_inodes;
};

} // namespace lizard::agent::quotafs
