#pragma once
// One request and its answer, as a handler sees it. Answer exactly once: reply*() or a
// stream (beginStream → write… → endStream). Call from the connection's executor().
// Dropped without an answer, it answers 500 (or cuts an unfinished stream).

#include "common/result.h"
#include "http/beast.h"
#include "http/target.h"

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lizard::http {

class HttpSession;
class WebSocketConnection;

class Exchange
{
public:
    Exchange(std::shared_ptr<HttpSession> session, Request request);
    ~Exchange();
    Exchange(const Exchange&) = delete;
    Exchange& operator=(const Exchange&) = delete;

    const Request& request() const { return m_request; }
    std::string_view path() const;                                 // target without the query
    std::optional<std::string> query(std::string_view name) const; // percent- and '+'-decoded
    bool wantsEventStream() const;
    net::any_io_executor executor() const;
    bool answered() const { return m_answered; }

    void reply(StringResponse&& response);
    void replyJson(int status, const nlohmann::json& body);
    void replyEmpty(int status = 204);
    void replyError(const Error& error, const nlohmann::json& extra = nlohmann::json::object());

    // contentLength: a plain body of that size; otherwise chunked.
    void beginStream(int status, std::string_view contentType,
                     std::optional<uint64_t> contentLength, std::function<void(bool ok)> done);
    void write(std::string data, std::function<void(bool ok)> done);
    void endStream();
    void abortStream();

    // A WebSocket upgrade request (Upgrade: websocket)?
    bool isWebSocketUpgrade() const;
    // On the executor: takes the connection over for a WebSocket. This answers the exchange;
    // start() the connection to send the 101. Null if the connection is gone.
    std::shared_ptr<WebSocketConnection> takeWebSocket();

    // onGone runs (on the executor) if the client disconnects before the answer is complete.
    void onClientGone(std::function<void()> onGone);

    // Keeps `companion` until the exchange ends (answered and let go by every handler): what
    // must last as long as the call, such as a sandbox's busy mark (api/wakegate.h).
    void keep(std::shared_ptr<void> companion) { m_companions.push_back(std::move(companion)); }

private:
    std::shared_ptr<HttpSession> m_session;
    Request m_request;
    bool m_answered = false;
    bool m_streaming = false;
    bool m_streamEnded = false;
    std::vector<std::shared_ptr<void>> m_companions;
};

} // namespace lizard::http
