#include "keepaliveconnection.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lizard::bench {

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// The value of header `name` (lower case) in the header block, or "".
std::string headerValue(const std::string& headersLower, const std::string& name)
{
    const size_t at = headersLower.find("\r\n" + name + ":");
    if (at == std::string::npos)
        return {};
    const size_t start = headersLower.find_first_not_of(' ', at + name.size() + 3);
    const size_t end = headersLower.find("\r\n", start);
    return headersLower.substr(start, end - start);
}

} // namespace

bool parseHttpUrl(const std::string& url, HostPort& out)
{
    const std::string scheme = "http://";
    if (url.compare(0, scheme.size(), scheme) != 0)
        return false;
    std::string rest = url.substr(scheme.size());
    rest = rest.substr(0, rest.find('/'));
    const size_t colon = rest.rfind(':');
    out.host = colon == std::string::npos ? rest : rest.substr(0, colon);
    out.port = colon == std::string::npos ? "80" : rest.substr(colon + 1);
    return !out.host.empty() && !out.port.empty();
}

KeepAliveConnection::KeepAliveConnection(HostPort target) : m_target(std::move(target)) {}

KeepAliveConnection::~KeepAliveConnection()
{
    closeSocket();
}

void KeepAliveConnection::closeSocket()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    m_buf.clear();
}

bool KeepAliveConnection::connectSocket()
{
    closeSocket();
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(m_target.host.c_str(), m_target.port.c_str(), &hints, &found) != 0 || !found) {
        m_error = "cannot resolve " + m_target.host;
        return false;
    }
    for (addrinfo* a = found; a != nullptr && m_fd < 0; a = a->ai_next) {
        m_fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (m_fd >= 0 && ::connect(m_fd, a->ai_addr, a->ai_addrlen) != 0)
            closeSocket();
    }
    freeaddrinfo(found);
    if (m_fd < 0) {
        m_error = std::string("cannot connect: ") + std::strerror(errno);
        return false;
    }
    const int one = 1;
    setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ++m_reconnects;
    return true;
}

bool KeepAliveConnection::readMore()
{
    char chunk[16384];
    for (;;) {
        const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
        if (n > 0) {
            m_buf.append(chunk, size_t(n));
            return true;
        }
        if (n < 0 && errno == EINTR)
            continue;
        m_error = n == 0 ? "connection closed by the server" : std::strerror(errno);
        return false;
    }
}

int KeepAliveConnection::roundTrip(const std::string& request)
{
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (m_fd < 0 && !connectSocket())
            return 0;
        size_t sent = 0;
        while (sent < request.size()) {
            const ssize_t n =
                ::send(m_fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
            if (n <= 0)
                break;
            sent += size_t(n);
        }
        size_t headerEnd = std::string::npos;
        bool alive = sent == request.size();
        while (alive && (headerEnd = m_buf.find("\r\n\r\n")) == std::string::npos)
            alive = readMore();
        if (!alive) {
            // A keep-alive connection the server closed between requests: retry once, fresh.
            const bool hadData = !m_buf.empty();
            closeSocket();
            if (hadData)
                return 0;
            continue;
        }
        const int status = std::atoi(m_buf.c_str() + m_buf.find(' ') + 1);
        bool keepAlive = true;
        if (!readBody(headerEnd + 4, keepAlive))
            return 0;
        if (!keepAlive)
            closeSocket();
        return status;
    }
    return 0;
}

bool KeepAliveConnection::readBody(size_t bodyStart, bool& keepAlive)
{
    const std::string headers = lower(m_buf.substr(0, bodyStart));
    keepAlive = headerValue(headers, "connection") != "close";
    if (headerValue(headers, "transfer-encoding").find("chunked") != std::string::npos) {
        size_t pos = bodyStart;
        for (;;) {
            size_t lineEnd;
            while ((lineEnd = m_buf.find("\r\n", pos)) == std::string::npos)
                if (!readMore())
                    return false;
            const size_t size = std::strtoul(m_buf.c_str() + pos, nullptr, 16);
            const size_t next = lineEnd + 2 + size + 2;
            while (m_buf.size() < next)
                if (!readMore())
                    return false;
            pos = next;
            if (size == 0) {
                m_buf.erase(0, pos); // trailers are not used by the API
                return true;
            }
        }
    }
    const std::string length = headerValue(headers, "content-length");
    const size_t end = bodyStart + (length.empty() ? 0 : std::strtoul(length.c_str(), nullptr, 10));
    while (m_buf.size() < end)
        if (!readMore())
            return false;
    m_buf.erase(0, end);
    return true;
}

} // namespace lizard::bench
