#include "proxy/proxysession.h"

#include "http/limits.h"
#include "proxy/accessrules.h"
#include "proxy/proxypages.h"
#include "store/store.h"

#include <iterator>
#include <sstream>
#include <sys/ioctl.h>

namespace lizard::proxy {

using http::bhttp::field;
using http::bhttp::status;

namespace {

constexpr auto kIdleTimeout = std::chrono::seconds(120);
constexpr std::uint32_t kHeaderLimit = 32 * 1024;

} // namespace

ProxySession::ProxySession(http::tcp::socket socket, std::shared_ptr<const ProxyContext> context,
                           std::string address)
    : m_client(std::move(socket)), m_context(std::move(context)), m_address(std::move(address)),
      m_fd(m_client.socket().native_handle())
{
}

bool ProxySession::idle() const
{
    if (!m_idle)
        return false;
    // The descriptor may be closed meanwhile by this session's own thread: then FIONREAD fails
    // and the connection counts as idle, which it is.
    int pending = 0;
    return ::ioctl(m_fd, FIONREAD, &pending) != 0 || pending == 0;
}

void ProxySession::run()
{
    http::net::dispatch(m_client.get_executor(),
                        [self = shared_from_this()] { self->readRequest(); });
}

void ProxySession::refuseOverCap()
{
    static const std::string page = [] {
        auto res = proxyPage(status::service_unavailable, "Too many connections",
                             "The port proxy has " +
                                 std::to_string(http::connectionLimits().proxyMaxConnections) +
                                 " connections open, its limit. Try again shortly.",
                             11, false);
        res.set(field::retry_after, "1");
        std::ostringstream out;
        out << res;
        return out.str();
    }();
    // Nothing is read and nothing waits: a flood costs a descriptor for a moment, no memory.
    http::beast::error_code ignored;
    auto& socket = m_client.socket();
    socket.non_blocking(true, ignored);
    socket.write_some(http::net::buffer(page), ignored);
    socket.shutdown(http::tcp::socket::shutdown_send, ignored);
    socket.close(ignored);
    m_closed = true;
}

void ProxySession::stop()
{
    http::net::post(m_client.get_executor(), [self = shared_from_this()] { self->close(); });
}

void ProxySession::close()
{
    if (m_closed)
        return;
    m_closed = true;
    http::beast::error_code ignored;
    m_client.socket().shutdown(http::tcp::socket::shutdown_both, ignored);
    m_client.close();
    if (m_upstream) {
        m_upstream->socket().shutdown(http::tcp::socket::shutdown_both, ignored);
        m_upstream->close();
    }
}

void ProxySession::linger()
{
    if (m_closed)
        return;
    if (m_upstream) {
        http::beast::error_code ignored;
        m_upstream->socket().close(ignored);
        m_upstream.reset();
    }
    // Closing with unread request bytes would send a reset that can destroy the answer in
    // flight: half-close, read what is left for a moment, then close.
    if (!m_lingering) {
        m_lingering = true;
        http::beast::error_code ignored;
        m_client.socket().shutdown(http::tcp::socket::shutdown_send, ignored);
        m_client.expires_after(std::chrono::seconds(5)); // once: a talkative client gets no more
    }
    if (m_chunk.size() < 4096)
        m_chunk.resize(4096);
    m_client.async_read_some(http::net::buffer(m_chunk),
                             [self = shared_from_this()](http::beast::error_code ec, std::size_t) {
                                 if (ec)
                                     return self->close();
                                 self->linger();
                             });
}

void ProxySession::readRequest()
{
    if (m_closed)
        return;
    m_request.emplace();
    m_request->header_limit(kHeaderLimit);
    m_request->body_limit(boost::none); // bodies stream through, they are never held whole
    m_requestWriter.reset();
    m_response.reset();
    m_responseWriter.reset();
    m_responseStarted = false;
    m_retried = false;
    m_idle = true;
    m_busy.reset(); // answered: a connection kept alive between requests is not a use
    // A new connection has the API's header deadline for its first request; a kept-alive one
    // may idle longer between requests.
    m_client.expires_after(m_waitingFirst
                               ? std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                     http::connectionLimits().header)
                               : std::chrono::steady_clock::duration(kIdleTimeout));
    http::bhttp::async_read_header(
        m_client, m_clientBuffer, *m_request,
        [self = shared_from_this()](http::beast::error_code ec, std::size_t) {
            self->onRequestHeader(ec);
        });
}

void ProxySession::onRequestHeader(const http::beast::error_code& ec)
{
    m_waitingFirst = false;
    m_idle = false;
    if (ec == http::bhttp::error::header_limit)
        return answer(status::request_header_fields_too_large, "Request headers too large",
                      "The request headers are larger than 32 KiB.");
    if (ec)
        return close();
    auto& req = m_request->get();
    // Exactly one Host: with two, this check and the sandbox's server might each read a
    // different one; with none (HTTP/1.0) there is nothing to check against rebinding.
    const auto hosts = req.equal_range(field::host);
    if (std::distance(hosts.first, hosts.second) != 1)
        return answer(status::bad_request, "Bad request",
                      "A request must carry exactly one Host header.");
    const auto target = parseTarget(std::string_view(req.target().data(), req.target().size()));
    if (!target)
        return answer(status::bad_request, "Bad request", "This request target cannot be proxied.");
    // DNS rebinding: a page on another site that resolves its name to this address sends
    // that name as Host. Only the exposure's own address:port is accepted.
    const std::string host(req[field::host]);
    const bool hostOk =
        hostMatches(host, m_address, m_context->port) &&
        (target->authority.empty() || hostMatches(target->authority, m_address, m_context->port));
    if (!hostOk)
        return answer(status::misdirected_request, "Wrong host name",
                      "This address serves only requests for http://" + m_address + ":" +
                          std::to_string(m_context->port) + "/.");
    const auto exposure = m_context->exposures->byAddress(m_address);
    if (!exposure)
        return answer(status::not_found, "Port not exposed",
                      "No sandbox port is exposed at this address (any more).");
    m_exposure = *exposure;

    Target rewritten = *target;
    const auto queryToken = takeQueryToken(rewritten);
    std::optional<std::string> cookieToken;
    std::vector<std::string> cookies;
    const auto cookieFields = req.equal_range(field::cookie);
    for (auto f = cookieFields.first; f != cookieFields.second; ++f) {
        std::string value(f->value());
        if (auto t = takeCookieToken(value))
            cookieToken = std::move(t);
        if (!value.empty())
            cookies.push_back(std::move(value));
    }
    std::optional<std::string> headerToken;
    if (auto it = req.find(kTokenHeader); it != req.end())
        headerToken = std::string(it->value());
    // The most explicit token decides: header, then the query, then the cookie.
    const std::optional<std::string>& given = headerToken  ? headerToken
                                              : queryToken ? queryToken
                                                           : cookieToken;
    if (!given || !sameToken(*given, m_exposure.token))
        return answer(
            status::unauthorized, "Access token required",
            given ? "The access token is not valid for this port."
                  : "This port is private. Open it with the URL that exposePort returned, or send "
                    "the X-Lizard-Access-Token header.");

    const auto method = req.method();
    const bool redirect = queryToken && !headerToken &&
                          (method == http::bhttp::verb::get || method == http::bhttp::verb::head);
    // A request is a use of the sandbox (its idle time restarts, it is busy until answered); a
    // sandbox its lifecycle policy paused is resumed first, and this request waits for it.
    const SandboxUseHooks& uses = m_context->uses;
    m_busy = uses.hold ? uses.hold(m_exposure.sandboxId) : nullptr;
    if (!uses.touch || !uses.touch(m_exposure.sandboxId))
        return toSandbox(std::move(rewritten), redirect, std::move(cookies));
    uses.wake(m_exposure.sandboxId, "port " + std::to_string(m_exposure.port),
              [self = shared_from_this(), rewritten = std::move(rewritten), redirect,
               cookies = std::move(cookies)](bool) mutable {
                  http::net::post(self->m_client.get_executor(),
                                  [self, rewritten = std::move(rewritten), redirect,
                                   cookies = std::move(cookies)]() mutable {
                                      if (!self->m_closed)
                                          self->toSandbox(std::move(rewritten), redirect,
                                                          std::move(cookies));
                                  });
              });
}

void ProxySession::toSandbox(Target rewritten, bool redirect, std::vector<std::string> cookies)
{
    const store::SandboxPtr sandbox = m_context->store.sandbox(m_exposure.sandboxId);
    const std::string state = sandbox ? sandbox->status : std::string("stopped");
    if (state == "paused" || state == "pausing" || state == "resuming")
        return answer(status::conflict, "Sandbox paused",
                      "Sandbox " + m_exposure.sandboxId + " is " + state +
                          ". Resume it, then reload this page.");
    if (state != "running")
        return answer(status::not_found, "Sandbox ended",
                      "Sandbox " + m_exposure.sandboxId + " is not running any more.");
    m_socketPath = sandbox->handle.socketPath;

    if (redirect)
        return redirectWithCookie(rewritten.originForm());

    // What reaches the sandbox: origin-form target without our parameter, no token header,
    // no token cookie.
    auto& req = m_request->get();
    req.target(rewritten.originForm());
    req.erase(kTokenHeader);
    req.erase(field::cookie);
    for (const auto& c : cookies)
        req.insert(field::cookie, c);
    forward();
}

void ProxySession::used()
{
    const SandboxUseHooks& uses = m_context->uses;
    if (uses.touch && uses.touch(m_exposure.sandboxId))
        uses.wake(m_exposure.sandboxId, "port " + std::to_string(m_exposure.port), [](bool) {});
}

void ProxySession::answer(status s, const std::string& title, const std::string& text)
{
    const bool keepAlive = m_request && m_request->is_header_done() && m_request->is_done() &&
                           m_request->get().keep_alive();
    const unsigned version =
        m_request && m_request->is_header_done() ? m_request->get().version() : 11;
    writeLocal(
        std::make_shared<http::StringResponse>(proxyPage(s, title, text, version, keepAlive)));
}

void ProxySession::redirectWithCookie(const std::string& location)
{
    auto res = std::make_shared<http::StringResponse>(proxyPage(
        status::found, "Redirecting", "Redirecting to " + location, m_request->get().version(),
        m_request->is_done() && m_request->get().keep_alive()));
    res->set(field::location, location);
    res->set(field::set_cookie, tokenCookie(m_exposure.token));
    writeLocal(res);
}

void ProxySession::writeLocal(std::shared_ptr<http::StringResponse> res)
{
    const bool keepAlive = res->keep_alive();
    m_client.expires_after(kIdleTimeout);
    http::bhttp::async_write(
        m_client, *res,
        [self = shared_from_this(), res, keepAlive](http::beast::error_code ec, std::size_t) {
            if (ec)
                return self->close();
            if (!keepAlive)
                return self->linger();
            self->readRequest();
        });
}

} // namespace lizard::proxy
