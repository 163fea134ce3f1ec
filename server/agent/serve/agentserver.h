#pragma once
// The agent loop of PID 1: accepts connections on the inherited listening socket and runs
// one request per connection on its own thread, at most 64 at once (pings are answered
// beyond that, other requests get BUSY).

#include "agent/serve/agentcontext.h"

namespace lizard::agent {

[[noreturn]] void runAgentServer(int listenFd, AgentContext& context);

} // namespace lizard::agent
