#pragma once
// The proxy's access rules as pure functions over request text: which authority a request
// names, where its token is (header, query, cookie), and how the token is removed before
// the request reaches the sandbox.

#include <optional>
#include <string>
#include <string_view>

namespace lizard::proxy {

inline constexpr std::string_view kTokenHeader = "X-Lizard-Access-Token";
inline constexpr std::string_view kTokenParam = "lizard_token";
inline constexpr std::string_view kCookieName = "lizard_token";

// A request target split up. An absolute-form target ("http://host:port/p?q") gives its
// authority; origin-form ("/p?q") leaves it empty.
struct Target
{
    std::string authority;
    std::string path = "/";
    std::string query; // without '?'; may be empty
    bool hasQuery = false;

    std::string originForm() const { return path + (hasQuery ? "?" + query : std::string()); }
};

std::optional<Target> parseTarget(std::string_view target);

// True if `host` (a Host header or an absolute-form authority) names exactly
// address:port (":80" may be left out for port 80). Anything else is another site's name,
// as a DNS rebinding attack would send.
bool hostMatches(std::string_view host, std::string_view address, unsigned short port);

// Removes every lizard_token parameter from the query and returns the last value
// (percent-decoded), if there was one. The other parameters keep their order and bytes.
std::optional<std::string> takeQueryToken(Target& target);

// Removes our cookie from a Cookie header value and returns its value, if present. The
// other cookies stay as they were ("a=1; b=2").
std::optional<std::string> takeCookieToken(std::string& cookieHeader);

// Compares in time independent of where the strings differ.
bool sameToken(std::string_view given, std::string_view expected);

// The Set-Cookie value that stores the token for this exposure's host.
std::string tokenCookie(const std::string& token);

} // namespace lizard::proxy
