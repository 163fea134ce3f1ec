#pragma once
// The "exec" request: runs one command and streams its output over the connection.

#include "agent/agentcontext.h"
#include "agent/framestream.h"

#include <nlohmann/json.hpp>

namespace lizard::agent {

void handleExec(FrameStream& stream, const nlohmann::json& request, AgentContext& context);

} // namespace lizard::agent
