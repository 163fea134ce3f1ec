#pragma once
// A minimal HTTP/1.1 keep-alive connection over a plain socket, for the requests-per-second
// figure: it sends one prepared request at a time and reads the whole answer (Content-Length or
// chunked), so the client spends as little CPU as possible and the figure measures the server.

#include <string>

namespace lizard::bench {

struct HostPort
{
    std::string host;
    std::string port;
};

// Splits "http://host:port[/...]" into host and port; false for anything else (https included).
bool parseHttpUrl(const std::string& url, HostPort& out);

class KeepAliveConnection
{
public:
    explicit KeepAliveConnection(HostPort target);
    ~KeepAliveConnection();
    KeepAliveConnection(const KeepAliveConnection&) = delete;
    KeepAliveConnection& operator=(const KeepAliveConnection&) = delete;

    // Sends `request` (a complete HTTP/1.1 request) and reads the answer. Returns its status
    // code, or 0 with error() set. Reconnects when the server closed the connection.
    int roundTrip(const std::string& request);
    const std::string& error() const { return m_error; }
    int reconnects() const { return m_reconnects; }

private:
    bool connectSocket();
    bool readMore();
    bool readBody(size_t headerEnd, bool& keepAlive);
    void closeSocket();

    HostPort m_target;
    int m_fd = -1;
    std::string m_buf;
    std::string m_error;
    int m_reconnects = -1; // the first connect is not a reconnect
};

} // namespace lizard::bench
