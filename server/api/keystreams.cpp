#include "api/keystreams.h"

#include <vector>

namespace lizard::api {

Error keyRevoked()
{
    return Error{ErrorKind::Unauthenticated, "KEY_REVOKED",
                 "the API key of this request was revoked"};
}

void KeyStreams::add(const std::string& keyId, const std::shared_ptr<Revocable>& request)
{
    std::lock_guard lock(m_mutex);
    // Finished requests leave only an expired pointer: drop them as new ones come in.
    std::erase_if(m_requests, [](const auto& kv) { return kv.second.expired(); });
    m_requests.emplace(keyId, request);
}

int KeyStreams::revokeAll(const std::string& keyId)
{
    std::vector<std::shared_ptr<Revocable>> live;
    {
        std::lock_guard lock(m_mutex);
        const auto [begin, end] = m_requests.equal_range(keyId);
        for (auto it = begin; it != end; ++it) {
            if (auto r = it->second.lock())
                live.push_back(std::move(r));
        }
        m_requests.erase(begin, end);
    }
    for (const auto& r : live)
        r->revoke();
    return int(live.size());
}

} // namespace lizard::api
