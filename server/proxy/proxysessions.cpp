#include "proxy/proxysessions.h"

#include "proxy/proxysession.h"

#include <algorithm>

namespace lizard::proxy {

void ProxySessions::prune()
{
    m_entries.erase(std::remove_if(m_entries.begin(), m_entries.end(),
                                   [](const Entry& e) { return e.session.expired(); }),
                    m_entries.end());
}

bool ProxySessions::admit(const std::shared_ptr<ProxySession>& session, const std::string& address)
{
    std::shared_ptr<ProxySession> evicted;
    {
        std::lock_guard lock(m_mutex);
        prune();
        if (m_entries.size() >= m_cap) {
            // Entries are in arrival order: the first idle one is the oldest.
            auto it = std::find_if(m_entries.begin(), m_entries.end(), [](const Entry& e) {
                auto s = e.session.lock();
                return s && s->idle();
            });
            if (it == m_entries.end())
                return false;
            evicted = it->session.lock();
            m_entries.erase(it);
        }
        m_entries.push_back(Entry{session, address});
    }
    if (evicted)
        evicted->stop();
    return true;
}

void ProxySessions::closeAddress(const std::string& address)
{
    std::vector<std::shared_ptr<ProxySession>> ending;
    {
        std::lock_guard lock(m_mutex);
        prune();
        auto keep = std::stable_partition(m_entries.begin(), m_entries.end(), [&](const Entry& e) {
            return !address.empty() && e.address != address;
        });
        for (auto it = keep; it != m_entries.end(); ++it)
            if (auto s = it->session.lock())
                ending.push_back(std::move(s));
        m_entries.erase(keep, m_entries.end());
    }
    for (auto& s : ending)
        s->stop();
}

std::size_t ProxySessions::count()
{
    std::lock_guard lock(m_mutex);
    prune();
    return m_entries.size();
}

} // namespace lizard::proxy
