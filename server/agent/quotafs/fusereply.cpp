#include "agent/quotafs/fusereply.h"

#include <cerrno>
#include <cstring>

namespace lizard::agent::quotafs {

FuseReply::FuseReply(std::size_t bodyCapacity) : m_buffer(sizeof(fuse_out_header) + bodyCapacity) {}

void FuseReply::start(std::uint64_t unique)
{
    m_unique = unique;
    m_size = sizeof(fuse_out_header);
    m_error = 0;
    m_wanted = true;
}

void FuseReply::fail(int err)
{
    m_size = sizeof(fuse_out_header);
    m_error = err > 0 ? err : EIO;
}

bool FuseReply::add(const void* data, std::size_t n)
{
    if (n > bodyRoom())
        return false;
    std::memcpy(m_buffer.data() + m_size, data, n);
    m_size += n;
    return true;
}

char* FuseReply::room(std::size_t n)
{
    return n <= bodyRoom() ? m_buffer.data() + m_size : nullptr;
}

const char* FuseReply::message()
{
    fuse_out_header h{};
    h.len = std::uint32_t(m_size);
    h.error = -m_error;
    h.unique = m_unique;
    std::memcpy(m_buffer.data(), &h, sizeof h);
    return m_buffer.data();
}

} // namespace lizard::agent::quotafs
