#pragma once
// Policy-routing rules (FIB rules) and a local address, over rtnetlink: what the allow list of
// a sandbox with allowedHosts is made of (allowpolicy.h). Each call opens its own socket: the
// caller needs CAP_NET_ADMIN in the owner of the current network namespace at that moment.

#include <string>

namespace lizard::agent {

struct FibRule
{
    unsigned priority = 0;
    std::string to;    // "10.0.0.0/8"; host bits are cleared. Empty: every destination
    bool allow = true; // true: look the route up in the main table; false: prohibit (EACCES)
    int tcpDport = 0;  // > 0: only TCP to this port matches
};

// Adds the IPv4 rule; an identical rule already there is fine. Returns "" or what failed.
std::string addFibRule(const FibRule& rule);

// Gives the loopback device the IPv4 address `prefix` ("10.0.2.3/32"). "" or what failed.
std::string addLoopbackAddress(const std::string& prefix);

} // namespace lizard::agent
