#include "api/execrequest.h"

#include "api/jsonbody.h"
#include "sandboxes/runnersource.h"

namespace lizard::api {

Result<CommandFields> parseCommandFields(const nlohmann::json& body, const CommandRules& rules)
{
    Fields f(body);
    CommandFields r;
    const auto cmd = body.find("cmd");
    if (cmd == body.end() || cmd->is_null()) {
        if (rules.cmdRequired)
            return invalidArgument("field \"cmd\" is required (a string or an array of strings)");
    } else if (cmd->is_string()) {
        const auto text = cmd->get<std::string>();
        if (text.empty())
            return invalidArgument("field \"cmd\" is empty");
        r.argv = {"/bin/bash", "-c", text};
    } else if (cmd->is_array()) {
        auto argv = f.stringArray("cmd");
        if (!argv)
            return argv.error();
        if (argv->empty() || argv->front().empty())
            return invalidArgument("field \"cmd\" must name a program in its first element");
        r.argv = std::move(*argv);
    } else {
        return invalidArgument("field \"cmd\" must be a string or an array of strings");
    }
    for (const auto& a : r.argv) {
        if (a.find('\0') != std::string::npos)
            return invalidArgument("field \"cmd\" contains a NUL character");
    }
    auto envs = f.stringMap("envs");
    if (!envs)
        return envs.error();
    for (const auto& [k, v] : *envs) {
        if (k.empty() || k.find('=') != std::string::npos || k.find('\0') != std::string::npos ||
            v.find('\0') != std::string::npos)
            return invalidArgument("field \"envs\" has an invalid variable \"" + k + "\"");
    }
    r.env = std::move(*envs);
    auto user = f.optString("user");
    if (!user)
        return user.error();
    r.user = user->value_or(rules.defaultUser);
    if (r.user.empty() || r.user.size() > 64 || r.user.find_first_of("/:\n") != std::string::npos ||
        r.user.find('\0') != std::string::npos)
        return invalidArgument("field \"user\" is not a valid user name");
    const std::string field = rules.cwdField;
    auto workdir = f.optString(field);
    if (!workdir)
        return workdir.error();
    r.cwd = workdir->value_or("");
    if (!r.cwd.empty() && r.cwd.front() != '/')
        return invalidArgument("field \"" + field + "\" must be an absolute path");
    if (r.cwd.find('\0') != std::string::npos)
        return invalidArgument("field \"" + field + "\" contains a NUL character");
    return r;
}

Result<ParsedExec> parseExec(const nlohmann::json& body)
{
    auto command = parseCommandFields(body, CommandRules{});
    if (!command)
        return command.error();
    Fields f(body);
    ParsedExec out;
    runtime::ExecRequest& r = out.request;
    r.argv = std::move(command->argv);
    r.shippedRunner = sandboxes::isShippedRunner(r.argv);
    r.env = std::move(command->env);
    r.user = std::move(command->user);
    r.cwd = std::move(command->cwd);
    auto timeout = f.optInt("timeoutMs");
    if (!timeout)
        return Error{ErrorKind::InvalidArgument, "INVALID_TIMEOUT", timeout.error().message};
    const int64_t t = timeout->value_or(60000);
    if (t < 1000 || t > 600000)
        return Error{ErrorKind::InvalidArgument, "INVALID_TIMEOUT",
                     "field \"timeoutMs\" must be from 1000 to 600000 (1 s to 10 min), got " +
                         std::to_string(t)};
    r.timeoutMs = int(t);
    auto pidEvent = f.optBool("pidEvent");
    if (!pidEvent)
        return pidEvent.error();
    out.pidEvent = pidEvent->value_or(false);
    return out;
}

} // namespace lizard::api
