#include "api/router.h"

#include "common/crypto.h"
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

bool Router::authorized(const http::RequestHeader& header) const
{
    const auto key = http::presentedApiKey(header);
    if (!key || key->size() > 256)
        return false;
    return m_store.keyByHash(sha256Hex(*key)).has_value();
}

void Router::handle(std::shared_ptr<http::Exchange> exchange)
{
    const auto route = m_routes.resolve(exchange->request().method(), exchange->path());
    if (route.handler) {
        (*route.handler)(exchange, route.params);
        return;
    }
    if (!route.allowed.empty()) {
        auto res = http::errorResponse(
            Error{405, "METHOD_NOT_ALLOWED",
                  std::string(exchange->request().method_string()) + " is not allowed on " +
                      std::string(exchange->path()) + " (allowed: " + route.allowed + ")"});
        res.set(http::bhttp::field::allow, route.allowed);
        exchange->reply(std::move(res));
        return;
    }
    exchange->replyError(
        Error{404, "NOT_FOUND", "no such endpoint: " + std::string(exchange->path())});
}

} // namespace lizard::api
