#include "api/router.h"

#include "common/crypto.h"
#include "http/auth.h"
#include "http/exchange.h"
#include "http/responses.h"
#include "store/store.h"

namespace lizard::api {

std::vector<std::string> splitPath(std::string_view path)
{
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos < path.size()) {
        if (path[pos] == '/') {
            ++pos;
            continue;
        }
        const size_t end = std::min(path.find('/', pos), path.size());
        out.push_back(http::percentDecode(path.substr(pos, end - pos), false));
        pos = end;
    }
    return out;
}

void Router::add(http::bhttp::verb method, const std::string& pattern, RouteHandler handler)
{
    m_routes.push_back(Route{method, splitPath(pattern), std::move(handler)});
}

bool Router::match(const Route& route, const std::vector<std::string>& segments, Params& params)
{
    if (route.segments.size() != segments.size())
        return false;
    params.clear();
    for (size_t i = 0; i < segments.size(); ++i) {
        if (route.segments[i] == "{}")
            params.push_back(segments[i]);
        else if (route.segments[i] != segments[i])
            return false;
    }
    return true;
}

uint64_t Router::bodyLimit(const http::RequestHeader& header) const
{
    if (header.method() != http::bhttp::verb::post)
        return kDefaultBodyLimit;
    const std::string_view target(header.target().data(), header.target().size());
    const auto segs = splitPath(target.substr(0, target.find('?')));
    // POST /api/sandboxes/{id}/files carries whole files (base64 in JSON).
    if (segs.size() == 4 && segs[0] == "api" && segs[1] == "sandboxes" && segs[3] == "files")
        return kUploadBodyLimit;
    return kDefaultBodyLimit;
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
    const auto segments = splitPath(exchange->path());
    Params params;
    std::string allowed;
    for (const Route& route : m_routes) {
        if (!match(route, segments, params))
            continue;
        if (route.method == exchange->request().method()) {
            route.handler(exchange, params);
            return;
        }
        allowed +=
            (allowed.empty() ? "" : ", ") + std::string(http::bhttp::to_string(route.method));
    }
    if (!allowed.empty()) {
        auto res = http::errorResponse(
            Error{405, "METHOD_NOT_ALLOWED",
                  std::string(exchange->request().method_string()) + " is not allowed on " +
                      std::string(exchange->path()) + " (allowed: " + allowed + ")"});
        res.set(http::bhttp::field::allow, allowed);
        exchange->reply(std::move(res));
        return;
    }
    exchange->replyError(
        Error{404, "NOT_FOUND", "no such endpoint: " + std::string(exchange->path())});
}

} // namespace lizard::api
