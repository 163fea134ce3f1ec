#pragma once
// Entering the sandbox's user namespace: the host side writes the maps, the child becomes
// root inside.

#include "agent/build/launchconfig.h"

#include <string>

namespace lizard::agent {

// Host side: writes uid_map/gid_map (and setgroups) of `child`. Empty string or an error.
std::string writeIdMaps(pid_t child, const LaunchConfig& config);

// Writes `content` to a /proc file in one write (id maps must arrive whole). Empty or an error.
std::string writeProcFile(const std::string& path, const std::string& content);

// The identity over the ids of the calling process's user namespace, extent by extent, as
// a map for a nested namespace ("0 0 1\n1 1 65535\n"): files keep their owners across the
// two, and each extent lies within one extent of the parent's map, as the kernel requires.
// `ownMap` is /proc/self/uid_map or gid_map.
std::string identityMap(const char* ownMap);

// Child side, after the maps exist: switches to uid/gid 0 of the namespace.
std::string becomeNamespaceRoot(const IdMap& map);

} // namespace lizard::agent
