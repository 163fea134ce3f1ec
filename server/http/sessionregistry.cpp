#include "http/sessionregistry.h"

#include "http/httpsession.h"

#include <algorithm>
#include <vector>

namespace lizard::http {

void SessionRegistry::add(const std::shared_ptr<HttpSession>& session)
{
    std::lock_guard lock(m_mutex);
    m_sessions[session.get()] = session;
}

void SessionRegistry::remove(const HttpSession* session)
{
    std::lock_guard lock(m_mutex);
    m_sessions.erase(session);
}

void SessionRegistry::stopAll()
{
    m_stopping = true;
    std::vector<std::shared_ptr<HttpSession>> live;
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [ptr, weak] : m_sessions) {
            if (auto s = weak.lock())
                live.push_back(std::move(s));
        }
    }
    for (const auto& s : live)
        s->stop();
}

bool SessionRegistry::evictOldestUnproven()
{
    // Several may be claimed at once by other accepts; try the oldest first, then the next.
    std::vector<std::shared_ptr<HttpSession>> candidates;
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [ptr, weak] : m_sessions) {
            if (auto s = weak.lock(); s && !s->keyShown())
                candidates.push_back(std::move(s));
        }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const auto& a, const auto& b) { return a->acceptedAt() < b->acceptedAt(); });
    for (const auto& s : candidates) {
        if (s->evict())
            return true;
    }
    return false;
}

std::size_t SessionRegistry::count() const
{
    std::lock_guard lock(m_mutex);
    return m_sessions.size();
}

} // namespace lizard::http
