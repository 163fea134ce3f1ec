#include "http/httpsession.h"

#include "http/exchange.h"
#include "http/limits.h"
#include "http/requesthandler.h"
#include "http/responses.h"
#include "http/sessionregistry.h"

#include <algorithm>
#include <array>

namespace lizard::http {

namespace {

constexpr uint32_t kHeaderLimit = 32 * 1024;
constexpr uint64_t kMaxBodyLimit = 128u << 20;     // no route accepts more
constexpr std::size_t kBodyReadBuffer = 64 * 1024; // Beast reads at most 64 KiB at a time

bool isDisconnect(beast::error_code ec)
{
    return ec == bhttp::error::end_of_stream || ec == net::error::eof ||
           ec == net::error::operation_aborted || ec == beast::error::timeout ||
           ec == net::error::connection_reset || ec == net::error::broken_pipe ||
           ec == bhttp::error::partial_message;
}

} // namespace

HttpSession::HttpSession(tcp::socket&& socket, RequestHandler& handler,
                         std::shared_ptr<SessionRegistry> registry)
    : m_stream(std::move(socket)), m_handler(handler), m_registry(std::move(registry))
{
}

HttpSession::~HttpSession()
{
    m_registry->remove(this);
}

void HttpSession::run()
{
    m_registry->add(shared_from_this());
    net::dispatch(m_stream.get_executor(), [self = shared_from_this()] {
        beast::error_code ec;
        self->m_stream.socket().set_option(tcp::no_delay(true), ec);
        self->doRead();
    });
}

std::optional<beast::tcp_stream> HttpSession::detach()
{
    if (m_answered || m_closed || m_watchPending)
        return std::nullopt;
    m_answered = true;
    m_closed = true; // close() and the read paths leave the moved-from stream alone
    m_detached = true;
    m_exchangeActive = false;
    m_onGone = nullptr;
    return std::move(m_stream);
}

void HttpSession::stop()
{
    if (m_detached)
        return;
    net::dispatch(m_stream.get_executor(), [self = shared_from_this()] {
        if (self->m_detached)
            return;
        self->m_stopping = true;
        if (!self->m_exchangeActive)
            self->m_stream.cancel(); // the pending header read ends with operation_aborted
    });
}

bool HttpSession::evict()
{
    if (m_keyShown || m_detached || m_evicted.exchange(true))
        return false;
    net::dispatch(m_stream.get_executor(), [self = shared_from_this()] {
        if (!self->m_keyShown)
            self->close(); // its pending read ends with operation_aborted
    });
    return true;
}

void HttpSession::doRead()
{
    if (m_stopping || m_registry->stopping())
        return close();
    m_parser.emplace();
    m_parser->header_limit(kHeaderLimit);
    // Beast checks Content-Length against the limit while parsing the header; the real,
    // per-route limit is set (and checked) once the header is in.
    m_parser->body_limit(kMaxBodyLimit);
    m_answered = false;
    // A new connection has proven nothing yet: its first header must be complete within the
    // header deadline, counted from accept. Only a client that showed the key may idle.
    if (m_keyShown && m_buffer.size() == 0)
        return waitForRequest();
    readHeader();
}

// Keep-alive: wait up to the idle timeout for the first byte of the next request.
void HttpSession::waitForRequest()
{
    m_stream.expires_after(connectionLimits().idle);
    m_stream.async_read_some(m_buffer.prepare(4096),
                             [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                                 if (ec)
                                     return self->failRead(ec);
                                 self->m_buffer.commit(n);
                                 self->readHeader();
                             });
}

// One deadline for the whole header (not per read): a client trickling a byte at a time
// cannot hold the connection longer than that.
void HttpSession::readHeader()
{
    m_stream.expires_after(connectionLimits().header);
    bhttp::async_read_header(
        m_stream, m_buffer, *m_parser,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->onHeader(ec); });
}

void HttpSession::onHeader(beast::error_code ec)
{
    if (ec)
        return failRead(ec);
    const auto& header = m_parser->get();
    m_keepAlive = m_parser->keep_alive();
    // The key is checked before a single body byte is read, for every request: without it
    // a body is never buffered (the answer goes out, what follows is discarded, then close).
    if (auto refused = m_handler.authorize(header)) {
        // A key refused for its scope is still a key: such a client may idle and stay.
        if (refused->kind != ErrorKind::Unauthenticated)
            m_keyShown = true;
        return sendNow(errorResponse(*refused), true);
    }
    m_keyShown = true;
    const uint64_t limit = m_handler.bodyLimit(header);
    m_parser->body_limit(limit);
    if (const auto length = m_parser->content_length(); length && *length > limit) {
        return sendNow(
            errorResponse(bhttp::status::payload_too_large, "PAYLOAD_TOO_LARGE",
                          "the request body is larger than " + std::to_string(limit) + " bytes"),
            true);
    }
    const auto expect = header[bhttp::field::expect];
    if (beast::iequals(expect, "100-continue") && !m_parser->is_done()) {
        auto cont = std::make_shared<std::string>("HTTP/1.1 100 Continue\r\n\r\n");
        m_stream.expires_after(connectionLimits().write);
        return net::async_write(
            m_stream, net::buffer(*cont),
            [self = shared_from_this(), cont](beast::error_code wec, std::size_t) {
                if (wec)
                    return self->close();
                self->startBody();
            });
    }
    startBody();
}

void HttpSession::startBody()
{
    m_bodyStart = std::chrono::steady_clock::now();
    m_bodyBytes = 0;
    readBody();
}

void HttpSession::readBody()
{
    if (m_parser->is_done())
        return onRequest();
    // Beast reads at most what the buffer has room for: without room set aside, an upload
    // arrived in pieces of about 1 KiB, one event-loop round trip each.
    if (m_buffer.capacity() < kBodyReadBuffer)
        m_buffer.reserve(kBodyReadBuffer);
    // A total deadline, and a minimum average rate after a grace period: the body is cut at
    // the moment what arrived so far falls below the rate (not a timer reset by every read,
    // which a byte a minute would keep alive forever).
    const ConnectionLimits& lim = connectionLimits();
    const auto earned = std::chrono::milliseconds(m_bodyBytes * 1000 / lim.bodyMinRate);
    m_stream.expires_at(std::min(m_bodyStart + lim.body, m_bodyStart + lim.bodyGrace + earned));
    bhttp::async_read_some(m_stream, m_buffer, *m_parser,
                           [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                               if (ec)
                                   return self->failRead(ec);
                               self->m_bodyBytes += n;
                               self->readBody();
                           });
}

void HttpSession::failRead(beast::error_code ec)
{
    if (ec == bhttp::error::body_limit)
        return sendNow(errorResponse(bhttp::status::payload_too_large, "PAYLOAD_TOO_LARGE",
                                     "the request body is too large"),
                       true);
    if (ec == bhttp::error::header_limit)
        return sendNow(errorResponse(bhttp::status::request_header_fields_too_large,
                                     "HEADERS_TOO_LARGE", "the request headers are too large"),
                       true);
    if (isDisconnect(ec) || ec.category() != beast::error_code(bhttp::error::bad_target).category())
        return close();
    // Anything else the parser rejected: say so once, then hang up.
    sendNow(errorResponse(bhttp::status::bad_request, "BAD_REQUEST",
                          "malformed HTTP request: " + ec.message()),
            true);
}

void HttpSession::onRequest()
{
    Request request = m_parser->release();
    m_exchangeActive = true;
    m_handler.handle(std::make_shared<Exchange>(shared_from_this(), std::move(request)));
}

void HttpSession::close()
{
    if (m_closed)
        return;
    m_closed = true;
    m_exchangeActive = false;
    if (auto cb = std::move(m_onGone)) {
        m_onGone = nullptr;
        cb();
    }
    beast::error_code ec;
    m_stream.socket().shutdown(tcp::socket::shutdown_both, ec);
    m_stream.close();
}

// After an error answer sent before the request body was read: stop sending, then drain
// what the client still sends for a moment, so that it reads our answer instead of a reset.
void HttpSession::lingerClose()
{
    beast::error_code ec;
    m_stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    auto sink = std::make_shared<std::array<char, 16384>>();
    auto total = std::make_shared<std::size_t>(0);
    m_stream.expires_after(std::chrono::seconds(3));
    auto drain = std::make_shared<std::function<void()>>();
    *drain = [self = shared_from_this(), sink, total, drain] {
        self->m_stream.async_read_some(
            net::buffer(*sink), [self, sink, total, drain](beast::error_code rec, std::size_t n) {
                *total += n;
                if (rec || *total > (64u << 20)) {
                    *drain = nullptr; // break the cycle
                    return self->close();
                }
                (*drain)();
            });
    };
    (*drain)();
}

} // namespace lizard::http
