#pragma once
// Maps agent replies to errors (NOT_FOUND → NotFound, PERMISSION_DENIED → Forbidden, ...).

#include "common/result.h"

#include <nlohmann/json.hpp>
#include <string>

namespace lizard::runtime {

Error agentError(const nlohmann::json& reply);
// SANDBOX_UNREACHABLE (Unreachable): no connection (socket gone, refused, closed mid-call).
Error agentUnreachable(const std::string& what);
// SANDBOX_UNRESPONSIVE (Timeout): connected but silent past a deadline (agent frozen or wedged).
Error agentUnresponsive(const std::string& what);

} // namespace lizard::runtime
