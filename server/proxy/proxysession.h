#pragma once
// One client connection to an exposure's address. Every request is parsed and checked
// (Host, token, exposure, sandbox status) before it is relayed to the sandbox port over a
// connection the agent opened inside the sandbox. Bodies stream in 64 KiB steps in both
// directions: the next read waits for the previous write (backpressure). A 101 answer turns
// the connection into a two-way byte pipe (WebSocket).
//   proxysession.cpp          requests and access rules
//   proxysession_forward.cpp  the relay of one request and its response
//   proxysession_tunnel.cpp   the byte pipe after an upgrade

#include "http/beast.h"
#include "proxy/accessrules.h"
#include "proxy/exposure.h"
#include "proxy/proxycontext.h"

#include <array>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lizard::proxy {

class ProxySession : public std::enable_shared_from_this<ProxySession>
{
public:
    ProxySession(http::tcp::socket socket, std::shared_ptr<const ProxyContext> context,
                 std::string address);

    void run();
    // Ends the connection (unexpose, shutdown). Thread-safe.
    void stop();
    // Over the proxy's connection cap: a short 503 written without waiting, then closed.
    // Instead of run().
    void refuseOverCap();
    // Waiting for a request (its first, or the next on a kept-alive connection) with none of
    // it arrived yet: such a connection makes room when the cap is reached. A request whose
    // bytes wait in the socket, not yet read by a busy server, is not idle: it is a use.
    // Called from the acceptor's thread.
    bool idle() const;

private:
    using RequestParser = http::bhttp::request_parser<http::bhttp::buffer_body>;
    using ResponseParser = http::bhttp::response_parser<http::bhttp::buffer_body>;
    using RequestWriter = http::bhttp::request_serializer<http::bhttp::buffer_body>;
    using ResponseWriter = http::bhttp::response_serializer<http::bhttp::buffer_body>;

    // proxysession.cpp
    void readRequest();
    void onRequestHeader(const http::beast::error_code& ec);
    // The sandbox's state decides (after a wake, if one was needed), then the relay.
    void toSandbox(Target rewritten, bool redirect, std::vector<std::string> cookies);
    // Traffic of this connection: a use of the sandbox (SandboxUseHooks).
    void used();
    void answer(http::bhttp::status status, const std::string& title, const std::string& text);
    void redirectWithCookie(const std::string& location);
    void writeLocal(std::shared_ptr<http::StringResponse> res);
    void close();
    void linger(); // half-close after the last answer, drain briefly, then close

    // proxysession_forward.cpp
    void forward();
    void dial();
    void onDialed(int fd);
    void relayRequestBody();
    void writeRequest();
    void readResponseHeader();
    void relayResponseBody();
    void writeResponse();
    void finishExchange();
    void upstreamFailed(const std::string& what);

    // proxysession_tunnel.cpp
    void startTunnel();
    void pipe(bool toUpstream);

    http::beast::tcp_stream m_client;
    http::beast::flat_buffer m_clientBuffer;
    std::shared_ptr<const ProxyContext> m_context;
    const std::string m_address;
    Exposure m_exposure;
    std::string m_socketPath;

    std::optional<RequestParser> m_request;
    std::optional<RequestWriter> m_requestWriter;
    std::optional<http::beast::tcp_stream> m_upstream;
    http::beast::flat_buffer m_upstreamBuffer;
    std::optional<ResponseParser> m_response;
    std::optional<ResponseWriter> m_responseWriter;
    std::vector<char> m_chunk;      // one body step at a time
    bool m_responseStarted = false; // bytes of the sandbox's answer went to the client
    bool m_closed = false;
    bool m_waitingFirst = true;
    std::atomic<bool> m_idle{true};
    const int m_fd; // the client socket's, for idle(); read only
    bool m_lingering = false;
    bool m_upstreamReused = false; // this request went over a kept-alive upstream connection
    bool m_retried = false;

    std::array<std::vector<char>, 2> m_pipeBuffers; // tunnel: [0] client→sandbox, [1] back
    int m_pipesOpen = 0;
    std::shared_ptr<void> m_busy; // the sandbox is busy while a request is in flight
};

} // namespace lizard::proxy
