// The answering half of HttpSession: whole answers, streamed answers, and the watch that
// notices a client hanging up while its request is being worked on.
#include "http/httpsession.h"
#include "http/limits.h"
#include "http/sessionregistry.h"

namespace lizard::http {

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
    m_stream.expires_after(connectionLimits().write);
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
        self->m_stream.expires_after(connectionLimits().write);
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
        self->m_stream.expires_after(connectionLimits().write);
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
        self->m_stream.expires_after(connectionLimits().write);
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

} // namespace lizard::http
