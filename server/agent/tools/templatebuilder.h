#pragma once
// Builds the template skeleton (root/, usr-dirs/, usr-local/ and the desktop template's
// usr-local-desktop/) under the directory `dirFd`, inside the sandbox user namespace so every
// file belongs to the sandbox's root (and home/user to uid 1000). Only whitelisted, public parts of
// the host's /etc are copied.

#include "agent/build/launchconfig.h"

#include <string>

namespace lizard::agent {

// `usrIdmapped`: sandboxes will get the host's /usr idmapped (hostusr.h), so the usr-dirs layer
// stays empty: the host's directories already belong to the sandbox's root there.
std::string buildTemplate(int dirFd, const LaunchConfig& config, bool usrIdmapped);

} // namespace lizard::agent
