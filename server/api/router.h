#pragma once
// Maps method + path to a route handler. Auth happens in authorized(), before any routing;
// unknown paths answer 404 NOT_FOUND, known paths with another method 405.

#include "api/routetable.h"
#include "http/requesthandler.h"

#include <memory>
#include <string>

namespace lizard::store {
class Store;
}

namespace lizard::api {

class Router : public http::RequestHandler
{
public:
    explicit Router(const store::Store& store) : m_store(store) {}

    // pattern: "/api/sandboxes/{}/exec"; each {} captures one path segment.
    void add(http::bhttp::verb method, const std::string& pattern, RouteHandler handler)
    {
        m_routes.add(method, pattern, std::move(handler));
    }

    uint64_t bodyLimit(const http::RequestHeader& header) const override;
    bool authorized(const http::RequestHeader& header) const override;
    void handle(std::shared_ptr<http::Exchange> exchange) override;

private:
    const store::Store& m_store;
    RouteTable m_routes;
};

} // namespace lizard::api
