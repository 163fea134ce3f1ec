#include "agent/build/routenetlink.h"

#include "agent/build/netlinksocket.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

std::string formatPrefix(int family, const void* addr, int len)
{
    char buf[INET6_ADDRSTRLEN] = {};
    ::inet_ntop(family, addr, buf, sizeof buf);
    return std::string(buf) + "/" + std::to_string(len);
}

bool isLoopback(int family, const unsigned char* a)
{
    if (family == AF_INET)
        return a[0] == 127;
    static const unsigned char one[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    return std::memcmp(a, one, 16) == 0;
}

} // namespace

std::vector<std::string> localAddressPrefixes(std::string* error)
{
    std::vector<std::string> out;
    RouteSocket sock;
    struct
    {
        nlmsghdr h;
        rtmsg r;
    } req{};
    req.h.nlmsg_len = sizeof req;
    req.h.nlmsg_type = RTM_GETROUTE;
    req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    req.h.nlmsg_seq = 1;
    req.r.rtm_family = AF_UNSPEC;
    int err = !sock.ok() ? errno : !sock.send(&req.h) ? errno : 0;
    if (err == 0) {
        err = sock.receive(1, [&](const nlmsghdr* h) {
            if (h->nlmsg_type != RTM_NEWROUTE)
                return;
            const auto* r = static_cast<const rtmsg*>(NLMSG_DATA(h));
            unsigned table = r->rtm_table;
            const rtattr* dst = nullptr;
            int len = int(RTM_PAYLOAD(h));
            for (auto* a = RTM_RTA(r); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
                if (a->rta_type == RTA_TABLE)
                    table = *static_cast<const unsigned*>(RTA_DATA(a));
                else if (a->rta_type == RTA_DST)
                    dst = a;
            }
            // Every address the host accepts connections on is a "local" route of table local.
            if (table != RT_TABLE_LOCAL || r->rtm_type != RTN_LOCAL || !dst)
                return;
            if ((r->rtm_family != AF_INET || RTA_PAYLOAD(dst) != 4) &&
                (r->rtm_family != AF_INET6 || RTA_PAYLOAD(dst) != 16))
                return;
            const auto* addr = static_cast<const unsigned char*>(RTA_DATA(dst));
            // A local default route (transparent proxying) is for marked packets only; as a
            // prohibit route it would end all internet access.
            if (r->rtm_dst_len > 0 && !isLoopback(r->rtm_family, addr))
                out.push_back(formatPrefix(r->rtm_family, addr, r->rtm_dst_len));
        });
    }
    if (err != 0) {
        if (error)
            *error = std::string("reading the host's local routes: ") + std::strerror(err);
        return {};
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string addProhibitRoutes(const std::vector<std::string>& prefixes)
{
    RouteSocket sock;
    if (!sock.ok())
        return std::string("netlink socket: ") + std::strerror(errno);
    unsigned seq = 0;
    for (const auto& text : prefixes) {
        Prefix p;
        if (!parsePrefix(text, p))
            return "not an address prefix: " + text;
        struct
        {
            nlmsghdr h;
            rtmsg r;
            char attrs[64];
        } req{};
        req.h.nlmsg_type = RTM_NEWROUTE;
        // Never replace: slirp4netns' own routes (10.0.2.0/24, default) must stay.
        req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
        req.h.nlmsg_seq = ++seq;
        req.r.rtm_family = static_cast<unsigned char>(p.family);
        req.r.rtm_dst_len = static_cast<unsigned char>(p.len);
        req.r.rtm_table = RT_TABLE_MAIN;
        req.r.rtm_protocol = RTPROT_STATIC;
        // Universe scope: when slirp4netns adds "default via 10.0.2.2", the kernel checks the
        // gateway against routes of link scope or narrower only, so it still accepts it.
        req.r.rtm_scope = RT_SCOPE_UNIVERSE;
        req.r.rtm_type = RTN_PROHIBIT;
        const int addrLen = p.family == AF_INET ? 4 : 16;
        auto* a = reinterpret_cast<rtattr*>(req.attrs);
        a->rta_type = RTA_DST;
        a->rta_len = static_cast<unsigned short>(RTA_LENGTH(addrLen));
        std::memcpy(RTA_DATA(a), p.addr, addrLen);
        req.h.nlmsg_len = NLMSG_LENGTH(sizeof(rtmsg)) + RTA_ALIGN(a->rta_len);
        if (!sock.send(&req.h))
            return "adding a route for " + text + ": " + std::strerror(errno);
        const int err = sock.receive(seq, [](const nlmsghdr*) {});
        // No IPv6 routes possible here (kernel without IPv6, or IPv6 off on lo): there is
        // nothing to block, slirp4netns forwards no IPv6 anyway.
        if (err != 0 && err != EEXIST &&
            !(p.family == AF_INET6 && (err == EAFNOSUPPORT || err == ENODEV)))
            return "adding a route for " + text + ": " + std::strerror(err);
    }
    return {};
}

} // namespace lizard::agent
