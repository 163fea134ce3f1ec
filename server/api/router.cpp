#include "api/router.h"

#include "common/crypto.h"
#include "common/timeutil.h"
#include "http/auth.h"
#include "http/exchange.h"
#include "http/responses.h"
#include "store/store.h"

namespace lizard::api {

uint64_t Router::bodyLimit(const http::RequestHeader& header) const
{
    return bodyLimitFor(header.method(),
                        std::string_view(header.target().data(), header.target().size()));
}

std::optional<Error> Router::authorize(const http::RequestHeader& header)
{
    const auto key = http::presentedApiKey(header);
    const auto entry =
        key && key->size() <= 256 ? m_store.authenticate(sha256Hex(*key), nowMs()) : nullptr;
    if (!entry)
        return Error{ErrorKind::Unauthenticated, "UNAUTHORIZED",
                     "missing or invalid API key (X-API-Key or Authorization: Bearer)"};
    const auto method = header.method();
    if (entry->record.readOnly && method != http::bhttp::verb::get &&
        method != http::bhttp::verb::head)
        return Error{ErrorKind::Forbidden, "INSUFFICIENT_SCOPE",
                     "API key \"" + entry->record.name +
                         "\" is read-only: " + std::string(header.method_string()) +
                         " changes state; use a key with "
                         "full access"};
    return std::nullopt;
}

void Router::handle(std::shared_ptr<http::Exchange> exchange)
{
    const auto route = m_routes.resolve(exchange->request().method(), exchange->path());
    if (route.handler) {
        if (!m_gate)
            return (*route.handler)(exchange, route.params);
        // The table is complete before serving: the handler's address stays valid.
        const RouteHandler* handler = route.handler;
        m_gate(exchange, [exchange, handler, params = std::move(route.params)] {
            (*handler)(exchange, params);
        });
        return;
    }
    if (!route.allowed.empty()) {
        auto res = http::errorResponse(
            http::bhttp::status::method_not_allowed, "METHOD_NOT_ALLOWED",
            std::string(exchange->request().method_string()) + " is not allowed on " +
                std::string(exchange->path()) + " (allowed: " + route.allowed + ")");
        res.set(http::bhttp::field::allow, route.allowed);
        exchange->reply(std::move(res));
        return;
    }
    exchange->replyError(Error{ErrorKind::NotFound, "NOT_FOUND",
                               "no such endpoint: " + std::string(exchange->path())});
}

} // namespace lizard::api
