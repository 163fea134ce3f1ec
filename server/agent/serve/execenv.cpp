#include "agent/serve/execenv.h"

#include <chrono>

namespace lizard::agent {

std::map<std::string, std::string> buildEnv(const AgentContext& context, const UserInfo& user,
                                            const nlohmann::json& requestEnv)
{
    std::map<std::string, std::string> env{
        {"PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
        {"HOME", user.home},
        {"USER", user.name},
        {"LOGNAME", user.name},
        {"SHELL", "/bin/bash"},
        {"LANG", "C.UTF-8"},
        {"PIP_BREAK_SYSTEM_PACKAGES", "1"},
    };
    for (const auto& [k, v] : context.envs.get())
        env[k] = v;
    for (const auto& [k, v] : requestEnv.items())
        env[k] = v.get<std::string>();
    return env;
}

bool validEnv(const nlohmann::json& env)
{
    if (env.is_null())
        return true;
    if (!env.is_object())
        return false;
    for (const auto& [k, v] : env.items()) {
        if (!v.is_string() || k.empty() || k.find('=') != std::string::npos ||
            k.find('\0') != std::string::npos)
            return false;
    }
    return true;
}

std::int64_t unixNowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace lizard::agent
