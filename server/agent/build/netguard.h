#pragma once
// Keeps a sandbox with internet access off the host. slirp4netns makes the sandbox's
// connections from the host's network namespace, so a connection to one of the host's own
// addresses would reach the host's services (--disable-host-loopback only covers 127.0.0.1
// through the gateway). PID 1 therefore installs "prohibit" routes in the sandbox's network
// namespace for every host address, the slirp gateway and link-local (metadata) addresses:
// connect() fails at once with EACCES. This holds as long as sandbox processes have neither
// CAP_NET_ADMIN (they could remove the routes) nor CAP_NET_RAW (a packet socket on tap0
// skips the routing table).

#include "agent/build/launchconfig.h"

#include <string>
#include <vector>

namespace lizard::agent {

// Host side (launcher), at each start, so that an address the host gained since (a VPN
// coming up) is blocked too: the slirp gateway, 169.254.0.0/16 and the host's own addresses
// (loopback left out: inside the sandbox 127.0.0.0/8 and ::1 are its own). Empty with
// *error set if the host's addresses could not be read.
std::vector<std::string> sandboxBlockedPrefixes(std::string* error);

// PID 1, before its root is set up: /proc is still the host's, whose /proc/sys/net shows
// the sandbox's network namespace (the sandbox's own /proc/sys is read-only). With internet
// access: IPv6 off on tap0 (slirp4netns runs without IPv6, so there it would only lead to
// neighbour discovery timeouts), and ping through ICMP datagram sockets for every sandbox
// group (sandbox processes have no CAP_NET_RAW in the network's user namespace). Best
// effort, reported on stderr: neither is a boundary.
void tuneSandboxNetwork(const LaunchConfig& config);

// PID 1, inside the sandbox's network namespace, with internet access (config.blockedPrefixes
// not empty): one prohibit route per prefix, then waits until slirp4netns is ready
// (SlirpPipes): call it before PID 1 becomes non-dumpable. Returns "" or what failed.
std::string installNetGuard(const LaunchConfig& config);

} // namespace lizard::agent
