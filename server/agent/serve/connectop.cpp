#include "agent/serve/connectop.h"

#include "agent/serve/fdpassing.h"
#include "agent/serve/frame.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

constexpr int kConnectTimeoutMs = 10000;

// Connects to addr (non-blocking with a timeout). Returns the fd, or -1 with errno set.
int connectTo(const sockaddr* addr, socklen_t len)
{
    int fd = ::socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    if (::connect(fd, addr, len) == 0)
        return fd;
    if (errno != EINPROGRESS) {
        int err = errno;
        ::close(fd);
        errno = err;
        return -1;
    }
    pollfd p{fd, POLLOUT, 0};
    int r = 0;
    do
        r = ::poll(&p, 1, kConnectTimeoutMs);
    while (r < 0 && errno == EINTR);
    int err = ETIMEDOUT;
    if (r > 0) {
        socklen_t errLen = sizeof err;
        if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &errLen) != 0)
            err = errno;
    }
    if (err != 0) {
        ::close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

// 127.0.0.1 first; a server that listens on ::1 only is found too.
int connectLoopback(int port)
{
    sockaddr_in v4{};
    v4.sin_family = AF_INET;
    v4.sin_port = htons(uint16_t(port));
    v4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = connectTo(reinterpret_cast<const sockaddr*>(&v4), sizeof v4);
    if (fd >= 0 || errno != ECONNREFUSED)
        return fd;
    sockaddr_in6 v6{};
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons(uint16_t(port));
    v6.sin6_addr = in6addr_loopback;
    int fd6 = connectTo(reinterpret_cast<const sockaddr*>(&v6), sizeof v6);
    if (fd6 < 0)
        errno = ECONNREFUSED; // report the IPv4 answer, the usual case
    return fd6;
}

} // namespace

void handleConnect(FrameStream& stream, const nlohmann::json& request)
{
    auto it = request.find("port");
    if (it == request.end() || !it->is_number_integer() || it->get<long long>() < 1 ||
        it->get<long long>() > 65535)
        return void(stream.writeError("INVALID_ARGUMENT", "port must be a number from 1 to 65535"));
    const int port = int(it->get<long long>());
    int fd = connectLoopback(port);
    if (fd < 0) {
        const int err = errno;
        const std::string text = std::strerror(err);
        if (err == ECONNREFUSED)
            return void(stream.writeError("CONNECTION_REFUSED", "nothing listens on port " +
                                                                    std::to_string(port) +
                                                                    " in the sandbox"));
        if (err == ETIMEDOUT)
            return void(stream.writeError("CONNECT_TIMEOUT", "port " + std::to_string(port) +
                                                                 " in the sandbox did not answer"));
        return void(
            stream.writeError("IO_ERROR", "connect to port " + std::to_string(port) + ": " + text));
    }
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    sockaddr_storage local{};
    socklen_t len = sizeof local;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len);
    const nlohmann::json reply{{"ok", true},
                               {"family", local.ss_family == AF_INET6 ? "ipv6" : "ipv4"}};
    sendJsonWithFd(stream.fd(), reply.dump(), fd);
    ::close(fd);
}

} // namespace lizard::agent
