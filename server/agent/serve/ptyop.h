#pragma once
// The "pty" request: starts a program on a new terminal of the sandbox's own devpts and hands
// the terminal's master side to lizard-local, which then reads and writes it directly; this
// connection stays open until the program ends (its exit code is the last frame) or
// lizard-local closes it (the agent then ends the program's tree).

#include "agent/serve/agentcontext.h"
#include "agent/serve/framestream.h"

#include <nlohmann/json.hpp>

namespace lizard::agent {

void handlePty(FrameStream& stream, const nlohmann::json& request, AgentContext& context);

} // namespace lizard::agent
