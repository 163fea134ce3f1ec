#pragma once
// Keeps a sandbox with internet access off the host. slirp4netns makes the sandbox's
// connections from the host's network namespace, so a connection to one of the host's own
// addresses would reach the host's services (--disable-host-loopback only covers 127.0.0.1
// through the gateway). PID 1 therefore installs "prohibit" routes in the sandbox's network
// namespace for every host address, the slirp gateway and link-local (metadata) addresses:
// connect() fails at once with EACCES. Sandbox processes lack CAP_NET_ADMIN, so they cannot
// remove these routes.

#include "agent/launch_config.h"

#include <string>
#include <vector>

namespace lizard::agent {

// Host side (launcher): the host's local addresses ("192.0.2.2/32", "fd00::2/128", local
// ranges such as "10.9.0.0/16" of `ip route add local`), read from the host's local
// routing table. Loopback is left out: inside the sandbox 127.0.0.0/8 and ::1 are its own.
// Empty with *error set if the table could not be read.
std::vector<std::string> hostLocalPrefixes(std::string* error);

// What PID 1 blocks besides the host's addresses: the slirp gateway and 169.254.0.0/16.
std::vector<std::string> fixedBlockedPrefixes();

// Inside the sandbox's network namespace (PID 1, after /proc is mounted), with internet
// access (config.blockedPrefixes not empty): one prohibit route per prefix; IPv6 off on
// tap0 (slirp4netns runs without IPv6, so there it only leads to neighbour discovery
// timeouts); ping through ICMP datagram sockets for every sandbox group, so that ping needs
// no CAP_NET_RAW (packet sockets would skip the routes). Then waits until slirp4netns is
// ready (SlirpPipes): call it before PID 1 becomes non-dumpable. Returns "" or what failed.
std::string installNetGuard(const LaunchConfig& config);

} // namespace lizard::agent
