#pragma once
// Where the host's /usr is not idmapped (an ordinary user's lizard-local: hostusr.h), the
// files of packages the host has belong to the host's root, which the sandbox does not map:
// dpkg can add files but cannot replace or delete those, and an upgrade or removal of such a
// package would stop halfway with a bare "Operation not permitted". A hook apt runs before
// dpkg (DPkg::Pre-Install-Pkgs) names those packages and stops apt before anything changed.

#include <string>

namespace lizard::agent {

// Writes the hook and its apt setting under `root` (the template's root/). Empty or what failed.
std::string writeHostPackageGuard(const std::string& root);

} // namespace lizard::agent
