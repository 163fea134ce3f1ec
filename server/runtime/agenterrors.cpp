#include "runtime/agenterrors.h"

namespace lizard::runtime {

Error agentError(const nlohmann::json& reply)
{
    std::string code = reply.value("code", std::string("IO_ERROR"));
    std::string message = reply.value("message", code);
    ErrorKind kind = ErrorKind::Internal;
    if (code == "BUSY") // the agent's own cap (agentserver.cpp): the same answer as ours
        return Error{ErrorKind::LimitReached, "SANDBOX_BUSY",
                     "the sandbox agent is serving the most requests it takes at once: " + message};
    if (code == "NOT_FOUND" || code == "NO_SUCH_PROCESS")
        kind = ErrorKind::NotFound;
    else if (code == "PERMISSION_DENIED")
        kind = ErrorKind::Forbidden;
    else if (code == "ALREADY_EXISTS")
        kind = ErrorKind::Conflict;
    else if (code == "INVALID_ARGUMENT" || code == "NOT_A_DIRECTORY" || code == "IS_A_DIRECTORY" ||
             code == "UNKNOWN_USER" || code == "SPAWN_FAILED")
        kind = ErrorKind::InvalidArgument;
    return Error{kind, code, message};
}

Error agentUnreachable(const std::string& what)
{
    return Error{ErrorKind::Unreachable, "SANDBOX_UNREACHABLE",
                 "the sandbox agent is not reachable: " + what};
}

Error agentUnresponsive(const std::string& what)
{
    return Error{ErrorKind::Timeout, "SANDBOX_UNRESPONSIVE",
                 "the sandbox agent did not respond: " + what};
}

} // namespace lizard::runtime
