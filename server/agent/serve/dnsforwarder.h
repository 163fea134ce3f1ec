#pragma once
// The DNS forwarder of a sandbox whose allowedHosts list host names (allowpolicy.h). It is the
// only way the sandbox resolves names: a query for a listed name ("pypi.org", or a subdomain
// of "*.pythonhosted.org") goes to the upstream resolver, and the IPv4 addresses of the answer
// are opened on TCP ports 80 and 443 (FIB rules) before the sandbox sees the answer; any other
// name gets REFUSED. UDP only: a truncated answer leaves the client to retry over TCP, which
// finds nothing listening (the forwarder asks upstream with EDNS sizes, so this is rare).

#include "agent/serve/dnsmessage.h"

#include <string>
#include <vector>

namespace lizard::agent {

// Serves forever: queries arrive on `listenFd` (UDP, inside the sandbox's network namespace),
// go out on `upstreamFd` (a connected UDP socket of the host's network namespace, so that
// nothing in the sandbox can reach the upstream resolver itself). Needs CAP_NET_ADMIN over
// the sandbox's network namespace for the rules. `upstreamFd` -1 (the host has no resolver):
// listed names get SERVFAIL.
[[noreturn]] void runDnsForwarder(int listenFd, int upstreamFd,
                                  const std::vector<std::string>& patterns);

} // namespace lizard::agent
