#pragma once
// A sandbox created with allowedHosts: slirp4netns as with internet access, but the kernel
// routes only what the list allows. PID 1 installs policy-routing rules (FIB rules) in the
// sandbox's network namespace, consulted before the main table:
//   prio 0      local table (the sandbox's own addresses, loopback)
//   prio 10     to 10.0.2.3/32 prohibit      slirp4netns' DNS: never reached directly
//   prio 100    to <CIDR> lookup main        each listed address or range, every port
//   prio 200    to <IP>/32 tcp dport 80|443 lookup main   added by the DNS forwarder
//   prio 32000  prohibit                     everything else: EACCES at once
// "lookup main" still finds netguard's prohibit routes (host addresses, slirp gateway,
// link-local), so no listed range opens the host. With a host name in the list, 10.0.2.3 (the
// sandbox's resolv.conf) becomes an address of lo and a forwarder (dnsforwarder.h) answers
// there; with addresses only, nothing answers DNS. The forwarder is a child of PID 1 forked
// before PID 1 gives up its capabilities (mountlock.h): it keeps CAP_NET_ADMIN over the
// network namespace to add rules, is not dumpable (no ptrace, no /proc/<pid>/mem from the
// sandbox), and sends upstream through a socket the launcher opened in the host's network
// namespace. The sandbox's root can kill it (same uid): DNS then stops, nothing opens.

#include "agent/build/launchconfig.h"

#include <string>

namespace lizard::agent {

// PID 1, in the sandbox's network namespace, after installNetGuard(): the rules above and,
// with names, the forwarder. `upstreamFd` (names only) is taken over. "" or what failed.
std::string installAllowList(const LaunchConfig& config, int upstreamFd, int logFd);

// Launcher, host side: a UDP socket connected to `upstream` ("IP:PORT"), or to the first IPv4
// nameserver of /etc/resolv.conf when it is empty. -1 with *error set when it fails; -1 with
// *error empty when the host has no IPv4 nameserver (offline): listed names then get SERVFAIL.
int openDnsUpstream(const std::string& upstream, std::string* error);

} // namespace lizard::agent
