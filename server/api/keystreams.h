#pragma once
// Requests that outlive their key check (exec streams, long execs), by the key that opened
// them: revoking a key ends them at once, rather than when they finish.

#include "common/result.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace lizard::api {

class Revocable
{
public:
    virtual ~Revocable() = default;
    // Ends the request with a KEY_REVOKED error; any thread.
    virtual void revoke() = 0;
};

// 401 KEY_REVOKED: what a revoked request answers, or its stream's last event says.
Error keyRevoked();

class KeyStreams
{
public:
    void add(const std::string& keyId, const std::shared_ptr<Revocable>& request);
    // Revokes every live request opened with this key; returns how many there were.
    int revokeAll(const std::string& keyId);

private:
    std::mutex m_mutex;
    std::multimap<std::string, std::weak_ptr<Revocable>> m_requests;
};

} // namespace lizard::api
