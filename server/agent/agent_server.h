#pragma once
// The agent loop of PID 1: accepts connections on the inherited listening socket and runs
// one request per connection on its own thread.

#include "agent/agent_context.h"

namespace lizard::agent {

[[noreturn]] void runAgentServer(int listenFd, AgentContext& context);

} // namespace lizard::agent
