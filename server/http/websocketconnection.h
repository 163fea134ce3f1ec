#pragma once
// One WebSocket connection taken over from an HttpSession after its upgrade request was
// authorised and routed (Exchange::takeWebSocket). Messages are delivered whole; what is sent
// is queued and written in order. Pings keep an idle connection checked (30 s), and a peer that
// answers nothing for 60 s is dropped. The public methods may be called from any thread.

#include "http/beast.h"

#include <atomic>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>

namespace lizard::http {

namespace websocket = boost::beast::websocket;

class WebSocketConnection : public std::enable_shared_from_this<WebSocketConnection>
{
public:
    struct Handler
    {
        std::function<void(bool binary, std::string message)> onMessage;
        std::function<void()> onClosed; // once, whatever ended the connection
        // After each message was written (queuedBytes() went down): for output backpressure.
        std::function<void()> onWritten;
    };

    // Largest message a client may send; a bigger one closes the connection with 1009.
    static constexpr std::size_t kMaxIncoming = 1u << 20;
    // How long a silent peer is kept (pings go at half of it); set before serving.
    static void setIdleTimeout(std::chrono::seconds idle) { s_idleSeconds = int(idle.count()); }

    explicit WebSocketConnection(beast::tcp_stream&& stream);
    ~WebSocketConnection();

    // Answers the upgrade (101) and starts reading. `onOpen` runs once the 101 is written.
    void start(Request request, Handler handler, std::function<void()> onOpen);
    void send(bool binary, std::shared_ptr<const std::string> data);
    void sendText(std::string text);
    // Closes after what is queued was written.
    void close(websocket::close_code code, std::string reason = {});
    // While paused no message is read: the client's TCP window fills (input backpressure).
    void pauseReading(bool paused);
    std::size_t queuedBytes() const { return m_queuedBytes; }
    net::any_io_executor executor() { return m_ws.get_executor(); }

private:
    void read();
    void writeNext();
    void finish();

    websocket::stream<beast::tcp_stream> m_ws;
    beast::flat_buffer m_in;
    Handler m_handler;
    struct Outgoing
    {
        bool binary;
        std::shared_ptr<const std::string> data;
    };
    std::deque<Outgoing> m_queue;
    std::atomic<std::size_t> m_queuedBytes{0};
    bool m_open = false;
    bool m_writing = false;
    bool m_reading = false;
    bool m_readPaused = false;
    bool m_closeAfterQueue = false;
    websocket::close_reason m_closeReason;
    bool m_finished = false;
    static inline std::atomic<int> s_idleSeconds{60};
};

} // namespace lizard::http
