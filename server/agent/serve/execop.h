#pragma once
// The "exec" request: runs one command and streams its output over the connection.

#include "agent/serve/agentcontext.h"
#include "agent/serve/framestream.h"

#include <nlohmann/json.hpp>

namespace lizard::agent {

void handleExec(FrameStream& stream, const nlohmann::json& request, AgentContext& context);

// {"op":"warmRunner","shippedRunner":<source>?}: starts the runner zygote (runnerzygote.h) and
// answers once it is ready (and has compiled the source lizard-local ships, when given), so that
// the first runCode of the official SDK or the app in this sandbox is warm already.
void handleWarmRunner(FrameStream& stream, const nlohmann::json& request, AgentContext& context);

} // namespace lizard::agent
