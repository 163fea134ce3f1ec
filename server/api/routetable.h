#pragma once
// Matching method + path to a route, and the body limit of a request: pure functions of the
// request line (no store, no session), so the fuzzers in fuzz/ can run them on their own.

#include "http/beast.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lizard::http {
class Exchange;
}

namespace lizard::api {

using Params = std::vector<std::string>; // the {} segments of the pattern, decoded
using RouteHandler = std::function<void(const std::shared_ptr<http::Exchange>&, const Params&)>;

inline constexpr uint64_t kDefaultBodyLimit = 1 << 20;   // 1 MiB
inline constexpr uint64_t kUploadBodyLimit = 128u << 20; // POST /files

// The path's segments, percent-decoded; empty segments (a doubled '/') are skipped.
std::vector<std::string> splitPath(std::string_view path);

// Largest body accepted for a request with this method and target.
uint64_t bodyLimitFor(http::bhttp::verb method, std::string_view target);

class RouteTable
{
public:
    // pattern: "/api/sandboxes/{}/exec"; each {} captures one path segment.
    void add(http::bhttp::verb method, const std::string& pattern, RouteHandler handler);

    struct Match
    {
        const RouteHandler* handler = nullptr; // the route of method + path, if there is one
        Params params;
        std::string allowed; // without a handler: the path's methods ("GET, POST"), or ""
    };
    Match resolve(http::bhttp::verb method, std::string_view path) const;

private:
    struct Route
    {
        http::bhttp::verb method;
        std::vector<std::string> segments;
        RouteHandler handler;
    };
    static bool match(const Route& route, const std::vector<std::string>& segments, Params& params);

    std::vector<Route> m_routes;
};

} // namespace lizard::api
