#pragma once
// A blocking {"op":"ping"} for the runtime's worker threads (start, isAlive).

#include <string>

namespace lizard::runtime {

bool pingAgent(const std::string& socketPath, int timeoutMs);

} // namespace lizard::runtime
