// lizard-local's HTTP front: the fuzz bytes are one request as it arrives on the socket. Beast
// parses it with HttpSession's limits, then the request line goes through what the session
// and the router do with it: the per-route body limit, the API key lookup's header reading,
// the route table (the API's real patterns, read from server/api at configure time) and the
// query parameters the routes read.

#include "api/routetable.h"
#include "fuzz_check.h"
#include "http/auth.h"
#include "http/target.h"

#include <boost/beast/http.hpp>
#include <string>
#include <vector>

using namespace lizard;
using http::bhttp::verb;

namespace {

struct ApiRoute
{
    verb method;
    const char* pattern;
};
const ApiRoute kApiRoutes[] = {
#include "api_routes.inc"
};

// The segments of the request being routed, for the handlers below to check their match.
std::vector<std::string> g_segments;

const api::RouteTable& table()
{
    static const api::RouteTable t = [] {
        api::RouteTable t;
        for (const ApiRoute& r : kApiRoutes) {
            const auto fixed = api::splitPath(r.pattern);
            // Never called with a real exchange: it only checks that the route matches the
            // path, segment by segment, and that the captures are the {} segments.
            t.add(r.method, r.pattern, [fixed](const auto&, const api::Params& params) {
                FUZZ_CHECK(fixed.size() == g_segments.size());
                size_t k = 0;
                for (size_t i = 0; i < fixed.size(); ++i) {
                    if (fixed[i] != "{}")
                        FUZZ_CHECK(fixed[i] == g_segments[i]);
                    else
                        FUZZ_CHECK(k < params.size() && params[k++] == g_segments[i]);
                }
                FUZZ_CHECK(k == params.size());
            });
        }
        return t;
    }();
    return t;
}

void route(const http::Request& req)
{
    const std::string_view target(req.target().data(), req.target().size());
    (void)http::presentedApiKey(req);
    const std::string_view path = http::targetPath(target);
    FUZZ_CHECK(path.size() <= target.size());
    g_segments = api::splitPath(path);
    const auto m = table().resolve(req.method(), path);
    if (m.handler) {
        FUZZ_CHECK(m.allowed.empty());
        (*m.handler)(nullptr, m.params);
    } else {
        FUZZ_CHECK(m.params.empty());
    }
    for (const char* name : {"path", "user", "cursor", "limit"})
        (void)http::queryParam(target, name);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    (void)table();
    http::bhttp::request_parser<http::bhttp::string_body> parser;
    // HttpSession's limits: 32 KiB of header, then the route's own body limit.
    parser.header_limit(32 * 1024);
    parser.body_limit(128u << 20);
    http::beast::error_code ec;
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    bool limited = false;
    while (!parser.is_done()) {
        const size_t used = parser.put(http::net::buffer(rest.data(), rest.size()), ec);
        if (ec == http::bhttp::error::need_more) { // all of the input was offered: it ended
            ec = {};
            if (!parser.got_some())
                return 0; // the client hung up before sending anything
            parser.put_eof(ec);
            break;
        }
        if (ec)
            return 0; // HttpSession answers 400/413/431 and hangs up
        rest.remove_prefix(used);
        if (parser.is_header_done() && !limited) {
            limited = true;
            const auto& h = parser.get();
            const uint64_t limit = api::bodyLimitFor(
                h.method(), std::string_view(h.target().data(), h.target().size()));
            FUZZ_CHECK(limit == api::kDefaultBodyLimit || limit == api::kUploadBodyLimit);
            if (const auto length = parser.content_length(); length && *length > limit)
                return 0; // 413
            parser.body_limit(limit);
        } else if (used == 0) {
            if (parser.got_some())
                parser.put_eof(ec);
            break;
        }
    }
    if (!ec && parser.is_done())
        route(parser.get());
    return 0;
}
