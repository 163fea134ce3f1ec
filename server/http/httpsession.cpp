#include "http/httpsession.h"

#include "http/exchange.h"
#include "http/requesthandler.h"
#include "http/responses.h"
#include "http/sessionregistry.h"

#include <chrono>

namespace lizard::http {

namespace {

constexpr auto kIdleTimeout = std::chrono::seconds(120); // keep-alive wait for the next request
constexpr auto kReadTimeout = std::chrono::seconds(60);  // each read of a request
constexpr auto kWriteTimeout =
    std::chrono::seconds(120); // each write (a client that stops reading)
constexpr uint32_t kHeaderLimit = 32 * 1024;
constexpr uint64_t kMaxBodyLimit = 128u << 20; // no route accepts more
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

void HttpSession::stop()
{
    net::dispatch(m_stream.get_executor(), [self = shared_from_this()] {
        self->m_stopping = true;
        if (!self->m_exchangeActive)
            self->m_stream.cancel(); // the pending header read ends with operation_aborted
    });
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
    m_stream.expires_after(kIdleTimeout);
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
    const uint64_t limit = m_handler.bodyLimit(header);
    m_parser->body_limit(limit);
    if (const auto length = m_parser->content_length(); length && *length > limit) {
        return sendNow(errorResponse(Error{413, "PAYLOAD_TOO_LARGE",
                                           "the request body is larger than " +
                                               std::to_string(limit) + " bytes"}),
                       true);
    }
    const auto expect = header[bhttp::field::expect];
    if (beast::iequals(expect, "100-continue")) {
        if (!m_handler.authorized(header))
            return sendNow(errorResponse(Error{401, "UNAUTHORIZED", "missing or invalid API key"}),
                           true);
        auto cont = std::make_shared<std::string>("HTTP/1.1 100 Continue\r\n\r\n");
        m_stream.expires_after(kWriteTimeout);
        return net::async_write(
            m_stream, net::buffer(*cont),
            [self = shared_from_this(), cont](beast::error_code wec, std::size_t) {
                if (wec)
                    return self->close();
                self->readBody();
            });
    }
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
    m_stream.expires_after(kReadTimeout);
    bhttp::async_read_some(m_stream, m_buffer, *m_parser,
                           [self = shared_from_this()](beast::error_code ec, std::size_t) {
                               if (ec)
                                   return self->failRead(ec);
                               self->readBody();
                           });
}

void HttpSession::failRead(beast::error_code ec)
{
    if (ec == bhttp::error::body_limit)
        return sendNow(
            errorResponse(Error{413, "PAYLOAD_TOO_LARGE", "the request body is too large"}), true);
    if (ec == bhttp::error::header_limit)
        return sendNow(
            errorResponse(Error{431, "HEADERS_TOO_LARGE", "the request headers are too large"}),
            true);
    if (isDisconnect(ec) || ec.category() != beast::error_code(bhttp::error::bad_target).category())
        return close();
    // Anything else the parser rejected: say so once, then hang up.
    sendNow(errorResponse(Error{400, "BAD_REQUEST", "malformed HTTP request: " + ec.message()}),
            true);
}

void HttpSession::onRequest()
{
    Request request = m_parser->release();
    m_exchangeActive = true;
    if (!m_handler.authorized(request)) {
        // Auth comes before any routing, for every path.
        return sendNow(errorResponse(Error{401, "UNAUTHORIZED",
                                           "missing or invalid API key (X-API-Key or "
                                           "Authorization: Bearer)"}),
                       false);
    }
    m_handler.handle(std::make_shared<Exchange>(shared_from_this(), std::move(request)));
}

void HttpSession::sendResponse(StringResponse&& response)
{
    net::dispatch(m_stream.get_executor(),
                  [self = shared_from_this(), r = std::move(response)]() mutable {
                      self->sendNow(std::move(r), false);
                  });
}

void HttpSession::sendNow(StringResponse&& response, bool forceClose)
{
    if (m_answered || m_closed)
        return;
    m_answered = true;
    m_exchangeActive = true;
    response.version(11);
    response.keep_alive(m_keepAlive && !forceClose && !m_stopping && !m_registry->stopping());
    auto sp = std::make_shared<StringResponse>(std::move(response));
    m_stream.expires_after(kWriteTimeout);
    bhttp::async_write(
        m_stream, *sp,
        [self = shared_from_this(), sp, forceClose](beast::error_code ec, std::size_t) {
            if (ec)
                return self->close();
            if (forceClose)
                return self->lingerClose();
            self->finishExchange(sp->keep_alive());
        });
}

void HttpSession::startStream(bhttp::response<bhttp::empty_body>&& header,
                              std::function<void(bool)> done)
{
    net::dispatch(m_stream.get_executor(), [self = shared_from_this(), h = std::move(header),
                                            done = std::move(done)]() mutable {
        if (self->m_answered || self->m_closed)
            return done(false);
        self->m_answered = true;
        h.version(11);
        h.keep_alive(self->m_keepAlive && !self->m_stopping && !self->m_registry->stopping());
        self->m_chunked = h.chunked();
        self->m_streamHeader = std::make_shared<bhttp::response<bhttp::empty_body>>(std::move(h));
        self->m_streamSerializer =
            std::make_shared<bhttp::response_serializer<bhttp::empty_body>>(*self->m_streamHeader);
        self->m_stream.expires_after(kWriteTimeout);
        bhttp::async_write_header(
            self->m_stream, *self->m_streamSerializer,
            [self, done = std::move(done)](beast::error_code ec, std::size_t) {
                if (ec)
                    self->close();
                done(!ec);
            });
    });
}

void HttpSession::writeStream(std::shared_ptr<const std::string> data,
                              std::function<void(bool)> done)
{
    net::dispatch(m_stream.get_executor(), [self = shared_from_this(), data = std::move(data),
                                            done = std::move(done)] {
        if (self->m_closed)
            return done(false);
        if (data->empty())
            return done(true); // an empty chunk would end a chunked body
        auto onWritten = [self, data, done](beast::error_code ec, std::size_t) {
            if (ec)
                self->close();
            done(!ec);
        };
        self->m_stream.expires_after(kWriteTimeout);
        if (self->m_chunked)
            net::async_write(self->m_stream, bhttp::make_chunk(net::buffer(*data)),
                             std::move(onWritten));
        else
            net::async_write(self->m_stream, net::buffer(*data), std::move(onWritten));
    });
}

void HttpSession::endStream()
{
    net::dispatch(m_stream.get_executor(), [self = shared_from_this()] {
        if (self->m_closed)
            return;
        const bool keepAlive = self->m_streamHeader && self->m_streamHeader->keep_alive();
        self->m_streamHeader.reset();
        self->m_streamSerializer.reset();
        if (!self->m_chunked)
            return self->finishExchange(keepAlive);
        self->m_stream.expires_after(kWriteTimeout);
        net::async_write(self->m_stream, bhttp::make_chunk_last(),
                         [self, keepAlive](beast::error_code ec, std::size_t) {
                             if (ec)
                                 return self->close();
                             self->finishExchange(keepAlive);
                         });
    });
}

void HttpSession::abortStream()
{
    net::dispatch(m_stream.get_executor(), [self = shared_from_this()] { self->close(); });
}

void HttpSession::finishExchange(bool keepAlive)
{
    m_exchangeActive = false;
    m_onGone = nullptr;
    const Next next =
        keepAlive && !m_stopping && !m_registry->stopping() ? Next::Read : Next::Close;
    if (m_watchPending) {
        // The close watch still reads; cancel it and continue once its handler ran.
        m_afterWatch = next;
        beast::error_code ec;
        m_stream.socket().cancel(ec);
        return;
    }
    proceed(next);
}

void HttpSession::proceed(Next next)
{
    if (next == Next::Read)
        doRead();
    else
        close();
}

void HttpSession::watchClose(std::function<void()> onGone)
{
    net::dispatch(m_stream.get_executor(),
                  [self = shared_from_this(), onGone = std::move(onGone)]() mutable {
                      if (self->m_closed) {
                          onGone();
                          return;
                      }
                      if (!self->m_exchangeActive)
                          return;
                      self->m_onGone = std::move(onGone);
                      if (!self->m_watchPending)
                          self->startWatch();
                  });
}

void HttpSession::startWatch()
{
    m_watchPending = true;
    // The raw socket, not the tcp_stream: the watch must not be subject to write timeouts.
    m_stream.socket().async_read_some(
        m_buffer.prepare(4096),
        [self = shared_from_this()](beast::error_code ec, std::size_t n) { self->onWatch(ec, n); });
}

void HttpSession::onWatch(beast::error_code ec, std::size_t n)
{
    m_watchPending = false;
    if (!ec) {
        m_buffer.commit(n); // a pipelined next request: kept for the next read
        if (m_exchangeActive && m_buffer.size() < 64 * 1024)
            return startWatch();
        if (!m_exchangeActive)
            proceed(m_afterWatch);
        return;
    }
    if (ec == net::error::operation_aborted && !m_exchangeActive)
        return proceed(m_afterWatch);
    // The client hung up while we were working for it.
    if (auto cb = std::move(m_onGone)) {
        m_onGone = nullptr;
        cb();
    }
    if (!m_exchangeActive)
        close();
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
