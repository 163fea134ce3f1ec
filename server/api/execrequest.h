#pragma once
// POST /api/sandboxes/{id}/exec body → the agent's exec request.

#include "common/result.h"
#include "runtime/agentclient.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lizard::api {

inline constexpr size_t kExecOutputCap = 512 * 1024; // per stream, non-streaming answers

struct ParsedExec
{
    runtime::ExecRequest request;
    bool pidEvent = false;
};

// What a command to start says, as exec and terminals take it: cmd (a string run by
// /bin/bash -c, or a non-empty argv array), envs, user, and its working directory.
struct CommandFields
{
    std::vector<std::string> argv; // empty: no cmd given (where it is optional)
    std::map<std::string, std::string> env;
    std::string user;
    std::string cwd;
};
struct CommandRules
{
    bool cmdRequired = true;
    const char* defaultUser = "root";
    const char* cwdField = "workdir";
};
Result<CommandFields> parseCommandFields(const nlohmann::json& body, const CommandRules& rules);

// cmd: a string (run by /bin/bash -c) or a non-empty argv array of strings. timeoutMs
// 1000..600000 (else 400 INVALID_TIMEOUT), default 60000.
Result<ParsedExec> parseExec(const nlohmann::json& body);

} // namespace lizard::api
