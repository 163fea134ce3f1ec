#pragma once
// The "exec" request: runs one command and streams its output over the connection.

#include "agent/agent_context.h"
#include "agent/frame_stream.h"

#include <nlohmann/json.hpp>

namespace lizard::agent {

void handleExec(FrameStream& stream, const nlohmann::json& request, AgentContext& context);

} // namespace lizard::agent
