#pragma once
// A blocking rtnetlink socket of the current network namespace, and address prefixes as
// text ("10.0.0.0/8"): what routenetlink.cpp and fibrules.cpp share.

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>

namespace lizard::agent {

inline constexpr int kReplyTimeoutMs = 2000;

struct Prefix
{
    int family = AF_UNSPEC;
    unsigned char addr[16] = {};
    int len = 0;
};

inline bool parsePrefix(const std::string& text, Prefix& p)
{
    const auto slash = text.find('/');
    if (slash == std::string::npos)
        return false;
    const std::string addr = text.substr(0, slash);
    p.family = addr.find(':') == std::string::npos ? AF_INET : AF_INET6;
    const int max = p.family == AF_INET ? 32 : 128;
    try {
        size_t used = 0;
        p.len = std::stoi(text.substr(slash + 1), &used);
        if (used != text.size() - slash - 1)
            return false;
    } catch (...) {
        return false;
    }
    return p.len >= 0 && p.len <= max && ::inet_pton(p.family, addr.c_str(), p.addr) == 1;
}

class RouteSocket
{
public:
    RouteSocket() : m_fd(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE)) {}
    ~RouteSocket()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    RouteSocket(const RouteSocket&) = delete;
    RouteSocket& operator=(const RouteSocket&) = delete;
    bool ok() const { return m_fd >= 0; }

    bool send(const nlmsghdr* msg)
    {
        return ::send(m_fd, msg, msg->nlmsg_len, 0) == ssize_t(msg->nlmsg_len);
    }

    // Reads answers to `seq` and hands each message to `each`; returns 0 once NLMSG_DONE or
    // an ACK arrives, the (positive) errno of an NLMSG_ERROR, or ETIMEDOUT.
    template <typename F> int receive(unsigned seq, F&& each)
    {
        alignas(nlmsghdr) char buf[32768];
        for (;;) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, kReplyTimeoutMs) != 1)
                return ETIMEDOUT;
            const ssize_t n = ::recv(m_fd, buf, sizeof buf, 0);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return errno;
            }
            int len = int(n);
            for (auto* h = reinterpret_cast<nlmsghdr*>(buf); NLMSG_OK(h, len);
                 h = NLMSG_NEXT(h, len)) {
                if (h->nlmsg_seq != seq)
                    continue;
                if (h->nlmsg_type == NLMSG_DONE)
                    return 0;
                if (h->nlmsg_type == NLMSG_ERROR)
                    return -static_cast<const nlmsgerr*>(NLMSG_DATA(h))->error;
                each(h);
            }
        }
    }

private:
    int m_fd;
};

// Appends one attribute to the netlink message that starts at `msg`, a buffer of `capacity`
// bytes; false (message unchanged) if it does not fit.
inline bool appendAttr(void* msg, size_t capacity, unsigned short type, const void* data,
                       size_t len)
{
    auto* h = static_cast<nlmsghdr*>(msg);
    const size_t at = NLMSG_ALIGN(h->nlmsg_len);
    if (at + RTA_SPACE(len) > capacity)
        return false;
    auto* a = reinterpret_cast<rtattr*>(static_cast<char*>(msg) + at);
    a->rta_type = type;
    a->rta_len = static_cast<unsigned short>(RTA_LENGTH(len));
    std::memcpy(RTA_DATA(a), data, len);
    h->nlmsg_len = static_cast<unsigned>(at + RTA_ALIGN(a->rta_len));
    return true;
}

} // namespace lizard::agent
