#pragma once
// The live connections, so that shutdown can stop idle ones and wait for busy ones, and the
// connection cap can make room.

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>

namespace lizard::http {

class HttpSession;

class SessionRegistry
{
public:
    void add(const std::shared_ptr<HttpSession>& session);
    void remove(const HttpSession* session);
    // Marks the server as stopping and asks every live session to finish and close.
    void stopAll();
    bool stopping() const { return m_stopping; }
    std::size_t count() const;
    // Over the connection cap: closes the oldest connection that has not shown the key yet.
    // False if every connection has (then the new one is refused).
    bool evictOldestUnproven();

private:
    mutable std::mutex m_mutex;
    std::map<const HttpSession*, std::weak_ptr<HttpSession>> m_sessions;
    std::atomic<bool> m_stopping{false};
};

} // namespace lizard::http
