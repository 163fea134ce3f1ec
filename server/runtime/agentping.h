#pragma once
// Blocking calls to a sandbox's agent for the runtime's worker threads: {"op":"ping"} (start,
// isAlive, the metrics' disk figure).

#include <optional>
#include <string>

namespace lizard::runtime {

// `request` is the ping's JSON (a ping may carry a lease, see agent/serve/lease.h).
bool pingAgent(const std::string& socketPath, int timeoutMs,
               const std::string& request = R"({"op":"ping"})");

// Sends `request` and answers the agent's whole JSON answer (at most 64 KiB); empty on any
// failure or past `timeoutMs`.
std::optional<std::string> askAgent(const std::string& socketPath, int timeoutMs,
                                    const std::string& request);

} // namespace lizard::runtime
