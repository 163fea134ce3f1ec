#pragma once
// The rtnetlink the network guard needs (netguard.h): reading the local addresses of the
// current network namespace and adding prohibit routes to it.

#include <string>
#include <vector>

namespace lizard::agent {

// The "local" routes of table local, as "192.0.2.2/32", "fd00::2/128" or a range of `ip route
// add local`: every address this namespace accepts connections on. Loopback and a local
// default route are left out. Empty with *error set if the table could not be read.
std::vector<std::string> localAddressPrefixes(std::string* error);

// One prohibit route per prefix in the main table. A prefix that already has a route is left
// alone; IPv6 prefixes are skipped where the namespace cannot hold IPv6 routes.
// Returns "" or what failed.
std::string addProhibitRoutes(const std::vector<std::string>& prefixes);

} // namespace lizard::agent
