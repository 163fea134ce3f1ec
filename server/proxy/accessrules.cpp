#include "proxy/accessrules.h"

#include "http/target.h"

#include <vector>

namespace lizard::proxy {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

bool equalsNoCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z')
            x = char(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = char(y - 'A' + 'a');
        if (x != y)
            return false;
    }
    return true;
}

} // namespace

std::optional<Target> parseTarget(std::string_view target)
{
    Target t;
    std::string_view rest = target;
    if (rest.size() >= 7 && equalsNoCase(rest.substr(0, 7), "http://")) {
        rest.remove_prefix(7);
        const size_t end = rest.find_first_of("/?");
        t.authority = std::string(rest.substr(0, end));
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
        if (t.authority.empty())
            return std::nullopt;
        if (rest.empty())
            rest = "/";
        else if (rest.front() == '?')
            t.path = "/";
    }
    if (rest.empty() || (rest.front() != '/' && rest.front() != '?'))
        return std::nullopt; // "*" (OPTIONS) and authority-form (CONNECT) are not proxied
    const size_t q = rest.find('?');
    if (rest.front() == '/')
        t.path = std::string(rest.substr(0, q));
    if (q != std::string_view::npos) {
        t.hasQuery = true;
        t.query = std::string(rest.substr(q + 1));
    }
    for (char c : target)
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
            return std::nullopt;
    return t;
}

bool hostMatches(std::string_view host, std::string_view address, unsigned short port)
{
    const std::string expected = std::string(address) + ":" + std::to_string(port);
    if (host == expected)
        return true;
    return port == 80 && host == address;
}

std::optional<std::string> takeQueryToken(Target& target)
{
    if (!target.hasQuery)
        return std::nullopt;
    std::optional<std::string> token;
    std::string kept;
    std::string_view rest = target.query;
    while (true) {
        const size_t amp = rest.find('&');
        const std::string_view part = rest.substr(0, amp);
        const size_t eq = part.find('=');
        const std::string_view name = part.substr(0, eq);
        if (name == kTokenParam) {
            token = eq == std::string_view::npos ? std::string()
                                                 : http::percentDecode(part.substr(eq + 1), true);
        } else if (!part.empty()) {
            if (!kept.empty())
                kept += '&';
            kept += part;
        }
        if (amp == std::string_view::npos)
            break;
        rest.remove_prefix(amp + 1);
    }
    if (token) {
        target.query = kept;
        target.hasQuery = !kept.empty();
    }
    return token;
}

std::optional<std::string> takeCookieToken(std::string& cookieHeader)
{
    std::optional<std::string> token;
    std::vector<std::string_view> kept;
    std::string_view rest = cookieHeader;
    while (true) {
        const size_t semi = rest.find(';');
        const std::string_view pair = trim(rest.substr(0, semi));
        const size_t eq = pair.find('=');
        if (eq != std::string_view::npos && trim(pair.substr(0, eq)) == kCookieName) {
            std::string_view value = trim(pair.substr(eq + 1));
            if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
                value = value.substr(1, value.size() - 2);
            token = std::string(value);
        } else if (!pair.empty()) {
            kept.push_back(pair);
        }
        if (semi == std::string_view::npos)
            break;
        rest.remove_prefix(semi + 1);
    }
    if (token) {
        std::string joined;
        for (const auto& k : kept)
            joined += (joined.empty() ? "" : "; ") + std::string(k);
        cookieHeader = joined;
    }
    return token;
}

bool sameToken(std::string_view given, std::string_view expected)
{
    unsigned char diff = given.size() == expected.size() ? 0 : 1;
    for (size_t i = 0; i < expected.size(); ++i)
        diff |= static_cast<unsigned char>((i < given.size() ? given[i] : 0) ^ expected[i]);
    return diff == 0 && !expected.empty();
}

std::string tokenCookie(const std::string& token)
{
    return std::string(kCookieName) + "=" + token + "; Path=/; HttpOnly; SameSite=Lax";
}

} // namespace lizard::proxy
