#pragma once
// The "exec" request: runs one command and streams its output over the connection.

#include "agent/serve/agentcontext.h"
#include "agent/serve/framestream.h"

#include <nlohmann/json.hpp>

namespace lizard::agent {

void handleExec(FrameStream& stream, const nlohmann::json& request, AgentContext& context);

} // namespace lizard::agent
