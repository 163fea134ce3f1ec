#pragma once
// Entering the sandbox's user namespace: the host side writes the maps, the child becomes
// root inside.

#include "agent/launch_config.h"

#include <string>

namespace lizard::agent {

// Host side: writes uid_map/gid_map (and setgroups) of `child`. Empty string or an error.
std::string writeIdMaps(pid_t child, const LaunchConfig& config);

// Writes `content` to a /proc file in one write (id maps must arrive whole). Empty or an error.
std::string writeProcFile(const std::string& path, const std::string& content);

// Child side, after the maps exist: switches to uid/gid 0 of the namespace.
std::string becomeNamespaceRoot(const IdMap& map);

} // namespace lizard::agent
