#pragma once
// Runs `lizard-agent init|template|remove` with its JSON configuration on stdin and returns
// the JSON line it prints.

#include "common/result.h"

#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>
#include <vector>

namespace lizard::runtime {

// The lizard-agent next to the running executable (LIZARD_AGENT overrides, for tests that
// are not in the build's bin directory).
std::string findAgentBinary();

// A tool started with its configuration written: its pid and the read end of its stdout
// (both the caller's to reap and close).
struct SpawnedTool
{
    pid_t pid = -1;
    int out = -1;
};
Result<SpawnedTool> spawnAgentTool(const std::string& agentPath, const std::string& mode,
                                   const nlohmann::json& config,
                                   const std::vector<std::string>& prefix = {});

// `prefix`: a program and arguments that run the agent (systemd-run ... --); empty: none.
// `rest`: where a tool that prints more than its JSON line (`changes`) leaves what follows the
// line, read to the end; null: only the line is read.
Result<nlohmann::json> runAgentTool(const std::string& agentPath, const std::string& mode,
                                    const nlohmann::json& config, int timeoutMs,
                                    const std::vector<std::string>& prefix = {},
                                    std::string* rest = nullptr);

} // namespace lizard::runtime
