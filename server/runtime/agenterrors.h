#pragma once
// Maps agent replies to API errors (NOT_FOUND → 404, PERMISSION_DENIED → 403, ...).

#include "common/result.h"

#include <nlohmann/json.hpp>
#include <string>

namespace lizard::runtime {

Error agentError(const nlohmann::json& reply);
// 502 SANDBOX_UNREACHABLE: no connection (socket gone, refused, closed mid-call).
Error agentUnreachable(const std::string& what);
// 504 SANDBOX_UNRESPONSIVE: connected but silent past a deadline (agent frozen or wedged).
Error agentUnresponsive(const std::string& what);

} // namespace lizard::runtime
