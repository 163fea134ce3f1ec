#pragma once
// One HTTP/1.1 connection: reads a request (header deadline, key checked before any body
// byte is read, body deadline and minimum rate, body limits), hands it to the RequestHandler
// as an Exchange, writes the answer (whole, or streamed), then keeps alive (idle timeout).
// All state lives on the connection's strand; the public methods may be called from anywhere.
//   httpsession.cpp        reading requests, closing
//   httpsession_write.cpp  answers, streams, the close watch

#include "http/beast.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace lizard::http {

class RequestHandler;
class SessionRegistry;

class HttpSession : public std::enable_shared_from_this<HttpSession>
{
public:
    HttpSession(tcp::socket&& socket, RequestHandler& handler,
                std::shared_ptr<SessionRegistry> registry);
    ~HttpSession();

    void run();
    net::any_io_executor executor() { return m_stream.get_executor(); }

    void sendResponse(StringResponse&& response);
    void startStream(bhttp::response<bhttp::empty_body>&& header,
                     std::function<void(bool ok)> done);
    void writeStream(std::shared_ptr<const std::string> data, std::function<void(bool ok)> done);
    void endStream();
    void abortStream();
    // Calls onGone if the client closes the connection while the current exchange runs.
    void watchClose(std::function<void()> onGone);
    // Server shutdown: finish the current exchange, then close; close now if idle.
    void stop();
    // On the executor, for an upgrade: hands the connection over (nothing is read or written
    // here after this). Empty if it was answered or closed already.
    std::optional<beast::tcp_stream> detach();

    // For the connection cap (any thread): a connection that has not shown the key yet may be
    // closed to make room for a new one, oldest first.
    bool keyShown() const { return m_keyShown; }
    std::chrono::steady_clock::time_point acceptedAt() const { return m_acceptedAt; }
    // Claims this connection for eviction (true once) and closes it unless it showed the key.
    bool evict();

private:
    enum class Next { Read, Close };

    void doRead();
    void waitForRequest();
    void readHeader();
    void onHeader(beast::error_code ec);
    void startBody();
    void readBody();
    void onRequest();
    void failRead(beast::error_code ec);
    void sendNow(StringResponse&& response, bool forceClose);
    void finishExchange(bool keepAlive);
    void proceed(Next next);
    void startWatch();
    void onWatch(beast::error_code ec, std::size_t n);
    void close();
    void lingerClose();

    beast::tcp_stream m_stream;
    beast::flat_buffer m_buffer;
    std::optional<bhttp::request_parser<bhttp::string_body>> m_parser;
    RequestHandler& m_handler;
    std::shared_ptr<SessionRegistry> m_registry;

    bool m_keepAlive = true;
    // A request on this connection had the key: it may idle, and it is never evicted.
    std::atomic<bool> m_keyShown{false};
    std::atomic<bool> m_evicted{false};
    const std::chrono::steady_clock::time_point m_acceptedAt = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point m_bodyStart;
    uint64_t m_bodyBytes = 0;
    bool m_exchangeActive = false;
    bool m_answered = false;
    bool m_stopping = false;
    bool m_closed = false;
    bool m_detached = false;

    std::shared_ptr<bhttp::response<bhttp::empty_body>> m_streamHeader;
    std::shared_ptr<bhttp::response_serializer<bhttp::empty_body>> m_streamSerializer;
    bool m_chunked = false;

    bool m_watchPending = false;
    Next m_afterWatch = Next::Read;
    std::function<void()> m_onGone;
};

} // namespace lizard::http
