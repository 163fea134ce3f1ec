#pragma once
// Maps agent replies to API errors (NOT_FOUND → 404, PERMISSION_DENIED → 403, ...).

#include "common/result.h"

#include <nlohmann/json.hpp>

#include <string>

namespace lizard::runtime {

Error agentError(const nlohmann::json& reply);
Error agentUnreachable(const std::string& what);

} // namespace lizard::runtime
