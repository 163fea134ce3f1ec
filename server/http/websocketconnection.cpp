#include "http/websocketconnection.h"

namespace lizard::http {

WebSocketConnection::WebSocketConnection(beast::tcp_stream&& stream) : m_ws(std::move(stream)) {}

WebSocketConnection::~WebSocketConnection() = default;

void WebSocketConnection::start(Request request, Handler handler, std::function<void()> onOpen)
{
    net::dispatch(m_ws.get_executor(), [self = shared_from_this(), request = std::move(request),
                                        handler = std::move(handler),
                                        onOpen = std::move(onOpen)]() mutable {
        self->m_handler = std::move(handler);
        // The HTTP deadlines end here; the WebSocket's own timeouts take over.
        beast::get_lowest_layer(self->m_ws).expires_never();
        websocket::stream_base::timeout timeouts{};
        timeouts.handshake_timeout = std::chrono::seconds(30);
        timeouts.idle_timeout = std::chrono::seconds(s_idleSeconds.load());
        timeouts.keep_alive_pings = true;
        self->m_ws.set_option(timeouts);
        self->m_ws.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
            res.set(bhttp::field::server, "lizard-local/" LIZARD_VERSION);
        }));
        self->m_ws.read_message_max(kMaxIncoming);
        auto req = std::make_shared<Request>(std::move(request));
        self->m_ws.async_accept(*req,
                                [self, req, onOpen = std::move(onOpen)](beast::error_code ec) {
                                    if (ec)
                                        return self->finish();
                                    self->m_open = true;
                                    if (onOpen)
                                        onOpen();
                                    self->read();
                                    self->writeNext();
                                });
    });
}

void WebSocketConnection::read()
{
    if (m_reading || m_readPaused || m_finished)
        return;
    m_reading = true;
    m_ws.async_read(m_in, [self = shared_from_this()](beast::error_code ec, std::size_t) {
        self->m_reading = false;
        if (ec)
            return self->finish();
        std::string message = beast::buffers_to_string(self->m_in.data());
        self->m_in.consume(self->m_in.size());
        if (self->m_handler.onMessage)
            self->m_handler.onMessage(self->m_ws.got_binary(), std::move(message));
        self->read();
    });
}

void WebSocketConnection::pauseReading(bool paused)
{
    net::dispatch(m_ws.get_executor(), [self = shared_from_this(), paused] {
        self->m_readPaused = paused;
        if (!paused && self->m_open)
            self->read();
    });
}

void WebSocketConnection::send(bool binary, std::shared_ptr<const std::string> data)
{
    m_queuedBytes += data->size();
    net::dispatch(m_ws.get_executor(), [self = shared_from_this(), binary, data = std::move(data)] {
        if (self->m_finished || self->m_closeAfterQueue) {
            self->m_queuedBytes -= data->size();
            return;
        }
        self->m_queue.push_back({binary, data});
        self->writeNext();
    });
}

void WebSocketConnection::sendText(std::string text)
{
    send(false, std::make_shared<const std::string>(std::move(text)));
}

void WebSocketConnection::close(websocket::close_code code, std::string reason)
{
    net::dispatch(m_ws.get_executor(),
                  [self = shared_from_this(), code, reason = std::move(reason)] {
                      if (self->m_finished || self->m_closeAfterQueue)
                          return;
                      self->m_closeAfterQueue = true;
                      self->m_closeReason = websocket::close_reason(code, reason);
                      self->writeNext();
                  });
}

void WebSocketConnection::writeNext()
{
    if (!m_open || m_writing || m_finished)
        return;
    if (m_queue.empty()) {
        if (!m_closeAfterQueue)
            return;
        m_writing = true;
        return m_ws.async_close(m_closeReason, [self = shared_from_this()](beast::error_code) {
            self->m_writing = false;
            self->finish();
        });
    }
    m_writing = true;
    Outgoing next = m_queue.front();
    m_ws.binary(next.binary);
    m_ws.async_write(net::buffer(*next.data),
                     [self = shared_from_this(), next](beast::error_code ec, std::size_t) {
                         self->m_writing = false;
                         if (self->m_finished)
                             return; // finish() already dropped the queue and its count
                         self->m_queue.pop_front();
                         self->m_queuedBytes -= next.data->size();
                         if (ec)
                             return self->finish();
                         if (self->m_handler.onWritten)
                             self->m_handler.onWritten();
                         self->writeNext();
                     });
}

void WebSocketConnection::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    for (const auto& o : m_queue)
        m_queuedBytes -= o.data->size();
    m_queue.clear();
    beast::error_code ec;
    beast::get_lowest_layer(m_ws).socket().shutdown(tcp::socket::shutdown_both, ec);
    beast::get_lowest_layer(m_ws).close();
    if (auto cb = std::move(m_handler.onClosed)) {
        m_handler = {};
        cb();
    }
    m_handler = {};
}

} // namespace lizard::http
