#pragma once
// POST /api/sandboxes/{id}/exec body → the agent's exec request.

#include "common/result.h"
#include "runtime/agentclient.h"

#include <nlohmann/json.hpp>

namespace lizard::api {

inline constexpr size_t kExecOutputCap = 512 * 1024; // per stream, non-streaming answers

struct ParsedExec
{
    runtime::ExecRequest request;
    bool pidEvent = false;
};

// cmd: a string (run by /bin/bash -c) or a non-empty argv array of strings. timeoutMs
// 1000..600000 (else 400 INVALID_TIMEOUT), default 60000.
Result<ParsedExec> parseExec(const nlohmann::json& body);

} // namespace lizard::api
