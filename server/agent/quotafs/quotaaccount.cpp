#include "agent/quotafs/quotaaccount.h"

#include <algorithm>

namespace lizard::agent::quotafs {

namespace {

// Deleting a lower file costs a whiteout inode; a full layer keeps room for this many of them
// (1/64 of the bound, at least 256): enough to clean up, too few to matter as storage.
std::int64_t reserveFor(std::int64_t inodes)
{
    return std::max<std::int64_t>(256, inodes / 64);
}

} // namespace

QuotaAccount::QuotaAccount(QuotaLimits limits, std::int64_t usedBytes, std::int64_t usedInodes)
    : m_limits(limits), m_whiteoutReserve(reserveFor(limits.inodes)), m_bytes(usedBytes),
      m_inodes(usedInodes)
{
}

bool QuotaAccount::reserveBytes(std::int64_t n)
{
    if (n <= 0)
        return true;
    std::int64_t now = m_bytes.load(std::memory_order_relaxed);
    do {
        if (now + n > m_limits.bytes)
            return false;
    } while (!m_bytes.compare_exchange_weak(now, now + n, std::memory_order_relaxed));
    return true;
}

bool QuotaAccount::takeInode(bool whiteout)
{
    const std::int64_t bound = m_limits.inodes + (whiteout ? m_whiteoutReserve : 0);
    std::int64_t now = m_inodes.load(std::memory_order_relaxed);
    do {
        if (now + 1 > bound)
            return false;
    } while (!m_inodes.compare_exchange_weak(now, now + 1, std::memory_order_relaxed));
    return true;
}

std::int64_t QuotaAccount::freeBytes() const
{
    return std::max<std::int64_t>(0, m_limits.bytes - usedBytes());
}

std::int64_t QuotaAccount::freeInodes() const
{
    return std::max<std::int64_t>(0, m_limits.inodes - usedInodes());
}

} // namespace lizard::agent::quotafs
