#pragma once
// The host's /usr, idmapped for a sandbox of a root server, so that packages the host has
// can be upgraded, reinstalled or removed inside the sandbox (runtime README, "/usr and
// apt-get install").

#include "agent/build/launchconfig.h"

#include <string>

namespace lizard::agent {

// A detached mount (open_tree) of the host's /usr: read-only, nosuid, nodev, and idmapped
// through the sandbox's own uid and gid maps, so host root's files belong to the sandbox's
// root there. Runs as host root, before the sandbox exists. Returns the descriptor, or -1 and
// why: not a root server (`why` stays empty; an ordinary user may not idmap a host file
// system), or the kernel or /usr's file system refused.
int openIdmappedHostUsr(const LaunchConfig& config, std::string* why);

} // namespace lizard::agent
