#include "api/agenterroranswers.h"

namespace lizard::api {

Error apiErrorFromAgent(const Error& error)
{
    Error e = error;
    if (e.code == "PERMISSION_DENIED")
        e.kind = ErrorKind::InvalidArgument;
    else if (e.code == "NO_SUCH_PROCESS")
        e.kind = ErrorKind::NotFound;
    else if (e.code == "RESOURCE_EXHAUSTED") // the sandbox is at its pids or memory limit
        e.kind = ErrorKind::Unavailable;
    return e;
}

std::optional<SpawnFailure> spawnFailure(const Error& error)
{
    if (error.code != "SPAWN_FAILED")
        return std::nullopt;
    // A path that does not exist, or a bare name found nowhere on PATH (the SDK's desktop
    // helpers read 127 as "no such command here").
    const bool missing = error.message.find("No such file or directory") != std::string::npos ||
                         error.message.find(": command not found") != std::string::npos;
    return SpawnFailure{missing ? 127 : 126, "lizard: " + error.message + "\n"};
}

} // namespace lizard::api
