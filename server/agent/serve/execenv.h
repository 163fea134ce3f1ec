#pragma once
// What every command started by the agent gets: its environment, checked and built the same
// way for an exec and for a terminal.

#include "agent/serve/agentcontext.h"
#include "agent/serve/userdb.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace lizard::agent {

// The base environment of `user`, then the sandbox's envs, then the request's.
std::map<std::string, std::string> buildEnv(const AgentContext& context, const UserInfo& user,
                                            const nlohmann::json& requestEnv);

// A request's env: absent, or an object of names (no '=' or NUL) to strings.
bool validEnv(const nlohmann::json& env);

// For the process table's startedAt.
std::int64_t unixNowMs();

} // namespace lizard::agent
