#include "agent/build/fibrules.h"

#include "agent/build/netlinksocket.h"

#include <linux/fib_rules.h>
#include <linux/if_addr.h>
#include <net/if.h>
#include <netinet/in.h>

namespace lizard::agent {

namespace {

std::string sendAndWait(RouteSocket& sock, nlmsghdr* h, const std::string& what)
{
    if (!sock.send(h))
        return what + ": " + std::strerror(errno);
    const int err = sock.receive(h->nlmsg_seq, [](const nlmsghdr*) {});
    if (err != 0 && err != EEXIST)
        return what + ": " + std::strerror(err);
    return {};
}

} // namespace

std::string addFibRule(const FibRule& rule)
{
    RouteSocket sock;
    if (!sock.ok())
        return std::string("netlink socket: ") + std::strerror(errno);
    Prefix p;
    if (!rule.to.empty() && (!parsePrefix(rule.to, p) || p.family != AF_INET))
        return "not an IPv4 prefix: " + rule.to;
    if (!rule.to.empty() && p.len < 32) {
        uint32_t addr;
        std::memcpy(&addr, p.addr, 4);
        addr &= htonl(p.len == 0 ? 0 : ~uint32_t(0) << (32 - p.len));
        std::memcpy(p.addr, &addr, 4);
    }
    struct
    {
        nlmsghdr h;
        fib_rule_hdr r;
        char attrs[128];
    } req{};
    req.h.nlmsg_len = NLMSG_LENGTH(sizeof(fib_rule_hdr));
    req.h.nlmsg_type = RTM_NEWRULE;
    req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
    req.h.nlmsg_seq = 1;
    req.r.family = AF_INET;
    req.r.dst_len = rule.to.empty() ? 0 : static_cast<unsigned char>(p.len);
    req.r.action = rule.allow ? FR_ACT_TO_TBL : FR_ACT_PROHIBIT;
    req.r.table = rule.allow ? RT_TABLE_MAIN : RT_TABLE_UNSPEC;
    const uint32_t priority = rule.priority;
    appendAttr(&req, sizeof req, FRA_PRIORITY, &priority, sizeof priority);
    if (rule.allow) {
        const uint32_t table = RT_TABLE_MAIN;
        appendAttr(&req, sizeof req, FRA_TABLE, &table, sizeof table);
    }
    if (!rule.to.empty() && p.len > 0)
        appendAttr(&req, sizeof req, FRA_DST, p.addr, 4);
    if (rule.tcpDport > 0) {
        const uint8_t proto = IPPROTO_TCP;
        appendAttr(&req, sizeof req, FRA_IP_PROTO, &proto, sizeof proto);
        const fib_rule_port_range ports{uint16_t(rule.tcpDport), uint16_t(rule.tcpDport)};
        appendAttr(&req, sizeof req, FRA_DPORT_RANGE, &ports, sizeof ports);
    }
    return sendAndWait(sock, &req.h,
                       "adding the rule for " + (rule.to.empty() ? "everything" : rule.to));
}

std::string addLoopbackAddress(const std::string& prefix)
{
    Prefix p;
    if (!parsePrefix(prefix, p) || p.family != AF_INET)
        return "not an IPv4 prefix: " + prefix;
    const unsigned index = ::if_nametoindex("lo");
    if (index == 0)
        return std::string("lo: ") + std::strerror(errno);
    RouteSocket sock;
    if (!sock.ok())
        return std::string("netlink socket: ") + std::strerror(errno);
    struct
    {
        nlmsghdr h;
        ifaddrmsg a;
        char attrs[64];
    } req{};
    req.h.nlmsg_len = NLMSG_LENGTH(sizeof(ifaddrmsg));
    req.h.nlmsg_type = RTM_NEWADDR;
    req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
    req.h.nlmsg_seq = 1;
    req.a.ifa_family = AF_INET;
    req.a.ifa_prefixlen = static_cast<unsigned char>(p.len);
    req.a.ifa_scope = RT_SCOPE_HOST;
    req.a.ifa_index = index;
    appendAttr(&req, sizeof req, IFA_LOCAL, p.addr, 4);
    appendAttr(&req, sizeof req, IFA_ADDRESS, p.addr, 4);
    return sendAndWait(sock, &req.h, "adding " + prefix + " to lo");
}

} // namespace lizard::agent
