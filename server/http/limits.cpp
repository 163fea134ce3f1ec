#include "http/limits.h"

#include "common/log.h"

#include <cstdlib>
#include <sstream>

namespace lizard::http {

bool parseConnectionLimits(const std::string& text, ConnectionLimits& limits, std::string* why)
{
    std::stringstream items(text);
    std::string item;
    while (std::getline(items, item, ',')) {
        if (item.empty())
            continue;
        const auto eq = item.find('=');
        const std::string key = item.substr(0, eq);
        char* end = nullptr;
        const std::string value = eq == std::string::npos ? std::string() : item.substr(eq + 1);
        const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || n == 0) {
            *why = "\"" + item + "\" is not key=positive number";
            return false;
        }
        const ConnectionLimits::ms time(static_cast<int64_t>(n));
        if (key == "idleMs")
            limits.idle = time;
        else if (key == "headerMs")
            limits.header = time;
        else if (key == "bodyGraceMs")
            limits.bodyGrace = time;
        else if (key == "bodyMinRate")
            limits.bodyMinRate = n;
        else if (key == "bodyMs")
            limits.body = time;
        else if (key == "writeMs")
            limits.write = time;
        else if (key == "keepaliveMs")
            limits.keepalive = time;
        else if (key == "maxConnections")
            limits.maxConnections = static_cast<std::size_t>(n);
        else if (key == "proxyMaxConnections")
            limits.proxyMaxConnections = static_cast<std::size_t>(n);
        else {
            *why = "unknown key \"" + key + "\"";
            return false;
        }
    }
    return true;
}

const ConnectionLimits& connectionLimits()
{
    static const ConnectionLimits limits = [] {
        ConnectionLimits l;
        const char* env = std::getenv("LIZARD_HTTP_LIMITS");
        if (env == nullptr || *env == '\0')
            return l;
        std::string why;
        ConnectionLimits adjusted;
        if (!parseConnectionLimits(env, adjusted, &why)) {
            log::warn(std::string("LIZARD_HTTP_LIMITS ignored: ") + why);
            return l;
        }
        log::info(std::string("HTTP limits adjusted by LIZARD_HTTP_LIMITS: ") + env);
        return adjusted;
    }();
    return limits;
}

} // namespace lizard::http
