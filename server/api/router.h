#pragma once
// Maps method + path to a route handler. Auth happens in authorized(), before any routing;
// unknown paths answer 404 NOT_FOUND, known paths with another method 405.

#include "http/requesthandler.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace lizard::store {
class Store;
}

namespace lizard::api {

using Params = std::vector<std::string>; // the {} segments of the pattern, decoded
using RouteHandler = std::function<void(const std::shared_ptr<http::Exchange>&, const Params&)>;

class Router : public http::RequestHandler
{
public:
    explicit Router(const store::Store& store) : m_store(store) {}

    // pattern: "/api/sandboxes/{}/exec"; each {} captures one path segment.
    void add(http::bhttp::verb method, const std::string& pattern, RouteHandler handler);

    uint64_t bodyLimit(const http::RequestHeader& header) const override;
    bool authorized(const http::RequestHeader& header) const override;
    void handle(std::shared_ptr<http::Exchange> exchange) override;

private:
    struct Route
    {
        http::bhttp::verb method;
        std::vector<std::string> segments;
        RouteHandler handler;
    };
    static bool match(const Route& route, const std::vector<std::string>& segments, Params& params);

    const store::Store& m_store;
    std::vector<Route> m_routes;
};

std::vector<std::string> splitPath(std::string_view path);

inline constexpr uint64_t kDefaultBodyLimit = 1 << 20;   // 1 MiB
inline constexpr uint64_t kUploadBodyLimit = 128u << 20; // POST /files

} // namespace lizard::api
