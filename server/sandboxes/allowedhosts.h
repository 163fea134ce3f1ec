#pragma once
// allowedHosts at create (server/api/DECISIONS.md, "allowedHosts"): what stays reachable for a
// sandbox without internet. A host name ("pypi.org", "*.pythonhosted.org" for its subdomains) on
// TCP 80 and 443; an IPv4 address or range on every port. Up to 50 entries.

#include "common/result.h"

#include <string>
#include <vector>

namespace lizard::sandboxes {

constexpr size_t kMaxAllowedHosts = 50;

struct AllowedHosts
{
    std::vector<std::string> entries; // as getInfo shows them: lower case, in request order
    std::vector<std::string> cidrs;   // "a.b.c.d/n" (an address gets /32)
    std::vector<std::string> names;   // "pypi.org", "*.pythonhosted.org"
    bool empty() const { return entries.empty(); }
};

// 400 TOO_MANY_ALLOWED_HOSTS beyond 50 entries; 400 INVALID_ALLOWED_HOST for an entry that is
// neither a host name nor an IPv4 address or CIDR range (IPv6 included: sandboxes have none).
Result<AllowedHosts> parseAllowedHosts(const std::vector<std::string>& list);

} // namespace lizard::sandboxes
