#pragma once
// A blocking {"op":"ping"} for the runtime's worker threads (start, isAlive).

#include <string>

namespace lizard::runtime {

// `request` is the ping's JSON (a ping may carry a lease, see agent/serve/lease.h).
bool pingAgent(const std::string& socketPath, int timeoutMs,
               const std::string& request = R"({"op":"ping"})");

} // namespace lizard::runtime
