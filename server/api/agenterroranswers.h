#pragma once
// How agent errors become API answers where the agent's own mapping would mislead clients.

#include "common/result.h"

#include <optional>
#include <string>

namespace lizard::api {

// PERMISSION_DENIED inside the sandbox is not an authentication failure (the SDKs turn
// 401/403 into AuthenticationError): 400 with the same code. NO_SUCH_PROCESS → 404.
// SANDBOX_UNRESPONSIVE (504), SANDBOX_BUSY (429) and SANDBOX_UNREACHABLE (502) pass as they are.
Error apiErrorFromAgent(const Error& error);

// A command that could not be started is an ordinary result, as a shell reports it:
// exit 127 when the program does not exist, 126 otherwise (the SDK's desktop helpers rely
// on 127). nullopt for any other error.
struct SpawnFailure
{
    int exitCode;
    std::string stderrText;
};
std::optional<SpawnFailure> spawnFailure(const Error& error);

} // namespace lizard::api
