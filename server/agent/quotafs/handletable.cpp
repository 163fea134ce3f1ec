#include "agent/quotafs/handletable.h"

#include <unistd.h>

namespace lizard::agent::quotafs {

Handle::~Handle()
{
    ::close(fd);
}

std::uint64_t HandleTable::add(std::shared_ptr<Handle> handle)
{
    std::lock_guard lock(m_mutex);
    const std::uint64_t fh = m_next++;
    m_handles.emplace(fh, std::move(handle));
    return fh;
}

std::shared_ptr<Handle> HandleTable::get(std::uint64_t fh) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_handles.find(fh);
    return it == m_handles.end() ? nullptr : it->second;
}

std::shared_ptr<Handle> HandleTable::take(std::uint64_t fh)
{
    std::lock_guard lock(m_mutex);
    auto it = m_handles.find(fh);
    if (it == m_handles.end())
        return nullptr;
    auto handle = std::move(it->second);
    m_handles.erase(it);
    return handle;
}

std::size_t HandleTable::size() const
{
    std::lock_guard lock(m_mutex);
    return m_handles.size();
}

} // namespace lizard::agent::quotafs
