#include "http/auth.h"

namespace lizard::http {

std::optional<std::string> presentedApiKey(const RequestHeader& header)
{
    if (const auto it = header.find("X-API-Key"); it != header.end() && !it->value().empty())
        return std::string(it->value());
    if (const auto it = header.find(bhttp::field::authorization); it != header.end()) {
        const std::string_view v(it->value().data(), it->value().size());
        if (v.size() > 7 && beast::iequals(v.substr(0, 7), "Bearer "))
            return std::string(v.substr(7));
    }
    return std::nullopt;
}

} // namespace lizard::http
