#include "proxy/proxypages.h"

namespace lizard::proxy {

namespace {

std::string escapeHtml(const std::string& s)
{
    std::string out;
    for (char c : s) {
        switch (c) {
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '&':
            out += "&amp;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

} // namespace

http::StringResponse proxyPage(http::bhttp::status status, const std::string& title,
                               const std::string& text, unsigned version, bool keepAlive)
{
    http::StringResponse res{status, version};
    res.set(http::bhttp::field::server, "lizard-local proxy");
    res.set(http::bhttp::field::content_type, "text/html; charset=utf-8");
    res.set(http::bhttp::field::cache_control, "no-store");
    res.set("X-Lizard-Proxy", "1"); // tells the proxy's own answers from the sandbox's
    res.body() = "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" +
                 escapeHtml(title) +
                 "</title></head>\n<body style=\"font-family:sans-serif;margin:3em\"><h1>" +
                 escapeHtml(title) + "</h1>\n<p>" + escapeHtml(text) +
                 "</p>\n<p><small>lizard-local port proxy</small></p></body></html>\n";
    res.keep_alive(keepAlive);
    res.prepare_payload();
    return res;
}

} // namespace lizard::proxy
