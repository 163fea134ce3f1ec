#pragma once
// Starts `lizard-agent keep` (agent/tools/keeper.h) for this server: the process that releases
// the host's mounts, loop devices and cgroups of sandboxes that end after the server was killed.

#include "common/result.h"

#include <nlohmann/json.hpp>
#include <string>

namespace lizard::runtime {

// `config`: {"dataDir", "cgroupBases"}. The keeper gets a pidfd of this process, its own
// session, no descriptor of the server's but that one and /dev/null, and is no child of it.
Status startHostKeeper(const std::string& agentPath, const nlohmann::json& config);

} // namespace lizard::runtime
