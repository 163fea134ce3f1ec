// The port proxy's access rules (server/proxy/accessrules): the fuzz bytes are a request
// target, a Host header and a Cookie header, one per line. The token must never reach the
// sandbox: once taken out of the query or the cookies, none is left to take again.

#include "fuzz_check.h"
#include "proxy/accessrules.h"

#include <string>

using namespace lizard::proxy;

namespace {

std::string line(std::string_view& rest)
{
    const auto nl = rest.find('\n');
    std::string out(rest.substr(0, nl));
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    const std::string target = line(rest);
    const std::string host = line(rest);
    std::string cookie = line(rest);

    if (auto t = parseTarget(target)) {
        FUZZ_CHECK(!t->path.empty() && t->path.front() == '/');
        for (char c : t->originForm())
            FUZZ_CHECK(static_cast<unsigned char>(c) > 0x20 && c != 0x7f);
        const bool hadToken = takeQueryToken(*t).has_value();
        FUZZ_CHECK(!takeQueryToken(*t).has_value());
        if (hadToken)
            FUZZ_CHECK(t->hasQuery == !t->query.empty());
        FUZZ_CHECK(parseTarget(t->originForm()).has_value());
        (void)hostMatches(t->authority, "127.0.0.2", 8080);
    }
    const bool matches80 = hostMatches(host, "127.0.0.2", 80);
    FUZZ_CHECK(matches80 == (host == "127.0.0.2" || host == "127.0.0.2:80"));
    FUZZ_CHECK(hostMatches(host, "127.0.0.2", 8080) == (host == "127.0.0.2:8080"));

    if (const auto token = takeCookieToken(cookie)) {
        FUZZ_CHECK(!takeCookieToken(cookie).has_value());
        FUZZ_CHECK(sameToken(*token, *token) == !token->empty());
        FUZZ_CHECK(tokenCookie(*token).rfind("lizard_token=" + *token + ";", 0) == 0);
    }
    FUZZ_CHECK(sameToken(host, cookie) == (!cookie.empty() && host == cookie));
    return 0;
}
