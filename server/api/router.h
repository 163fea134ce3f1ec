#pragma once
// Maps method + path to a route handler. Auth happens in authorize(), before any routing
// (and before the body is read): 401 without a known key, 403 INSUFFICIENT_SCOPE for a
// read-only key on anything but GET and HEAD. Unknown paths answer 404 NOT_FOUND, known
// paths with another method 405.

#include "api/routetable.h"
#include "http/requesthandler.h"

#include <functional>
#include <memory>
#include <string>

namespace lizard::store {
class Store;
}

namespace lizard::api {

class Router : public http::RequestHandler
{
public:
    explicit Router(store::Store& store) : m_store(store) {}

    // pattern: "/api/sandboxes/{}/exec"; each {} captures one path segment.
    void add(http::bhttp::verb method, const std::string& pattern, RouteHandler handler)
    {
        m_routes.add(method, pattern, std::move(handler));
    }

    // Runs before every route and runs it, now or later (api/wakegate.h). Set before serving.
    using Gate =
        std::function<void(const std::shared_ptr<http::Exchange>&, std::function<void()> route)>;
    void setGate(Gate gate) { m_gate = std::move(gate); }

    uint64_t bodyLimit(const http::RequestHeader& header) const override;
    std::optional<Error> authorize(const http::RequestHeader& header) override;
    void handle(std::shared_ptr<http::Exchange> exchange) override;

private:
    store::Store& m_store;
    RouteTable m_routes;
    Gate m_gate;
};

} // namespace lizard::api
