#pragma once
// The agent's "connect" request: opens a TCP connection to a port inside the sandbox's
// network namespace and hands the connected socket to lizard-local (SCM_RIGHTS).

#include "agent/serve/framestream.h"

#include <nlohmann/json.hpp>

namespace lizard::agent {

void handleConnect(FrameStream& stream, const nlohmann::json& request);

} // namespace lizard::agent
