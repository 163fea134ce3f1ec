#pragma once
// Runs `lizard-agent init|template|remove` with its JSON configuration on stdin and returns
// the JSON line it prints.

#include "common/result.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lizard::runtime {

// The lizard-agent next to the running executable (LIZARD_AGENT overrides, for tests that
// are not in the build's bin directory).
std::string findAgentBinary();

// `prefix`: a program and arguments that run the agent (systemd-run ... --); empty: none.
// `rest`: where a tool that prints more than its JSON line (`changes`) leaves what follows the
// line, read to the end; null: only the line is read.
Result<nlohmann::json> runAgentTool(const std::string& agentPath, const std::string& mode,
                                    const nlohmann::json& config, int timeoutMs,
                                    const std::vector<std::string>& prefix = {},
                                    std::string* rest = nullptr);

} // namespace lizard::runtime
