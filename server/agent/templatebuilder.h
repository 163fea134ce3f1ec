#pragma once
// Builds the template skeleton (root/ and usr-local/) under the directory `dirFd`, inside
// the sandbox user namespace so every file belongs to the sandbox's root (and home/user to
// uid 1000). Only whitelisted, public parts of the host's /etc are copied.

#include "agent/launchconfig.h"

#include <string>

namespace lizard::agent {

std::string buildTemplate(int dirFd, const LaunchConfig& config);

} // namespace lizard::agent
