#include "runtime/agenterrors.h"

namespace lizard::runtime {

Error agentError(const nlohmann::json& reply)
{
    std::string code = reply.value("code", std::string("IO_ERROR"));
    std::string message = reply.value("message", code);
    int status = 500;
    if (code == "BUSY") // the agent's own cap (agentserver.cpp): the same answer as ours
        return Error{429, "SANDBOX_BUSY",
                     "the sandbox agent is serving the most requests it takes at once: " + message};
    if (code == "NOT_FOUND" || code == "NO_SUCH_PROCESS")
        status = 404;
    else if (code == "PERMISSION_DENIED")
        status = 403;
    else if (code == "ALREADY_EXISTS")
        status = 409;
    else if (code == "INVALID_ARGUMENT" || code == "NOT_A_DIRECTORY" || code == "IS_A_DIRECTORY" ||
             code == "UNKNOWN_USER" || code == "SPAWN_FAILED")
        status = 400;
    return Error{status, code, message};
}

Error agentUnreachable(const std::string& what)
{
    return Error{502, "SANDBOX_UNREACHABLE", "the sandbox agent is not reachable: " + what};
}

Error agentUnresponsive(const std::string& what)
{
    return Error{504, "SANDBOX_UNRESPONSIVE", "the sandbox agent did not respond: " + what};
}

} // namespace lizard::runtime
