#include "agent/serve/dnsforwarder.h"

#include "agent/build/confinement.h"
#include "agent/build/fibrules.h"
#include "agent/serve/dnsmessage.h"

#include <arpa/inet.h>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <netinet/in.h>
#include <poll.h>
#include <random>
#include <set>
#include <sys/socket.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

using namespace dns;

constexpr size_t kMaxPacket = 4096;
constexpr int64_t kPendingTimeoutMs = 5000;
constexpr size_t kMaxPending = 256;
// Each address opens two rules; a name that answers with ever new addresses stops here.
constexpr size_t kMaxOpened = 2048;
constexpr unsigned kHostRulePriority = 200; // allowpolicy.cpp: after the listed CIDRs

int64_t nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct Pending
{
    sockaddr_in client{};
    uint8_t clientId[2] = {};
    std::string name;
    int64_t deadlineMs = 0;
};

class Forwarder
{
public:
    Forwarder(int listenFd, int upstreamFd, const std::vector<std::string>& patterns)
        : m_listen(listenFd), m_upstream(upstreamFd), m_patterns(patterns),
          m_rng(std::random_device{}())
    {
    }

    [[noreturn]] void run()
    {
        for (;;) {
            pollfd fds[2] = {{m_listen, POLLIN, 0}, {m_upstream, POLLIN, 0}};
            if (::poll(fds, m_upstream >= 0 ? 2 : 1, 1000) < 0 && errno != EINTR)
                ::_exit(1);
            expire();
            if (fds[0].revents & POLLIN)
                fromSandbox();
            if (fds[1].revents & POLLIN)
                fromUpstream();
        }
    }

private:
    void fromSandbox()
    {
        uint8_t buf[kMaxPacket];
        sockaddr_in from{};
        socklen_t len = sizeof from;
        const ssize_t n = ::recvfrom(m_listen, buf, sizeof buf, MSG_DONTWAIT,
                                     reinterpret_cast<sockaddr*>(&from), &len);
        Question q;
        if (n <= 0 || !readQuestion(buf, size_t(n), q) || (buf[2] & 0x80))
            return; // not DNS, or an answer: dropped
        const bool query = ((buf[2] >> 3) & 0x0F) == 0;
        const bool allowed = query && dnsNameAllowed(q.name, m_patterns);
        if (!allowed || m_upstream < 0 || m_pending.size() >= kMaxPending) {
            const size_t out = makeError(buf, q, allowed ? kServFail : kRefused);
            ::sendto(m_listen, buf, out, MSG_DONTWAIT, reinterpret_cast<sockaddr*>(&from), len);
            return;
        }
        uint16_t id;
        do {
            id = uint16_t(m_rng());
        } while (m_pending.count(id));
        Pending p;
        p.client = from;
        std::memcpy(p.clientId, buf, 2);
        p.name = q.name;
        p.deadlineMs = nowMs() + kPendingTimeoutMs;
        buf[0] = uint8_t(id >> 8);
        buf[1] = uint8_t(id);
        if (::send(m_upstream, buf, size_t(n), MSG_DONTWAIT) == n)
            m_pending.emplace(id, std::move(p));
    }

    void fromUpstream()
    {
        uint8_t buf[kMaxPacket];
        const ssize_t n = ::recv(m_upstream, buf, sizeof buf, MSG_DONTWAIT);
        Question q;
        if (n <= 0 || !readQuestion(buf, size_t(n), q) || !(buf[2] & 0x80))
            return;
        const auto it = m_pending.find(uint16_t(u16(buf)));
        if (it == m_pending.end() || it->second.name != q.name)
            return;
        // The rules come first: the sandbox connects as soon as it has the answer.
        for (uint32_t a : answerAddresses(buf, size_t(n), q.end))
            open(a);
        std::memcpy(buf, it->second.clientId, 2);
        ::sendto(m_listen, buf, size_t(n), MSG_DONTWAIT,
                 reinterpret_cast<const sockaddr*>(&it->second.client), sizeof it->second.client);
        m_pending.erase(it);
    }

    void open(uint32_t address)
    {
        if (m_opened.count(address))
            return;
        char text[INET_ADDRSTRLEN] = {};
        ::inet_ntop(AF_INET, &address, text, sizeof text);
        if (m_opened.size() >= kMaxOpened) {
            std::fprintf(stderr, "lizard-agent: dns: %d addresses opened, not %s\n",
                         int(kMaxOpened), text);
            return;
        }
        for (int port : {80, 443}) {
            if (auto e = addFibRule({kHostRulePriority, std::string(text) + "/32", true, port});
                !e.empty()) {
                std::fprintf(stderr, "lizard-agent: dns: %s\n", e.c_str());
                return;
            }
        }
        m_opened.insert(address);
    }

    void expire()
    {
        const int64_t now = nowMs();
        for (auto it = m_pending.begin(); it != m_pending.end();)
            it = it->second.deadlineMs < now ? m_pending.erase(it) : std::next(it);
    }

    int m_listen, m_upstream;
    std::vector<std::string> m_patterns;
    std::mt19937 m_rng;
    std::map<uint16_t, Pending> m_pending;
    std::set<uint32_t> m_opened;
};

} // namespace

void runDnsForwarder(int listenFd, int upstreamFd, const std::vector<std::string>& patterns)
{
    Forwarder forwarder(listenFd, upstreamFd, patterns); // seeds its ids before the filter
    if (auto e = confineDnsForwarder(); !e.empty()) {
        std::fprintf(stderr, "lizard-agent: dns: %s\n", e.c_str());
        ::_exit(1);
    }
    forwarder.run();
}

} // namespace lizard::agent
