#pragma once
// Every live connection of the port proxy, across all its listeners: the cap on open proxy
// connections counts here, and unexposing an address ends the connections made to it.
// Over the cap, the oldest connection waiting for a request makes room (a flood of silent
// connections cannot lock out a browser); if every one is busy, the new connection is
// refused with 503.

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace lizard::proxy {

class ProxySession;

class ProxySessions
{
public:
    explicit ProxySessions(std::size_t cap) : m_cap(cap) {}

    std::size_t cap() const { return m_cap; }
    // Registers a new connection. False when the cap is reached and no idle connection
    // could make room: the caller refuses it.
    bool admit(const std::shared_ptr<ProxySession>& session, const std::string& address);
    // Ends the connections made to `address` (all of them with an empty address).
    void closeAddress(const std::string& address);
    std::size_t count();

private:
    struct Entry
    {
        std::weak_ptr<ProxySession> session;
        std::string address;
    };
    void prune(); // drops entries of ended sessions; m_mutex held

    const std::size_t m_cap;
    std::mutex m_mutex;
    std::vector<Entry> m_entries; // in arrival order
};

} // namespace lizard::proxy
