#include "runtime/agentping.h"

#include "agent/serve/frame.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace lizard::runtime {

namespace {

bool waitFor(int fd, short events, std::chrono::steady_clock::time_point deadline)
{
    for (;;) {
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - std::chrono::steady_clock::now())
                      .count();
        if (ms <= 0)
            return false;
        pollfd p{fd, events, 0};
        int r = ::poll(&p, 1, int(ms));
        if (r < 0 && errno == EINTR)
            continue;
        return r == 1 && (p.revents & events);
    }
}

// An answer to a small request (a ping) is small: anything longer is not one.
constexpr std::uint32_t kMaxAnswer = 64 * 1024;

// Connects to the agent and sends `request` as one JSON frame; the socket, or -1.
int sendRequest(const std::string& socketPath, const std::string& request,
                std::chrono::steady_clock::time_point deadline)
{
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (socketPath.size() >= sizeof addr.sun_path)
        return -1;
    std::memcpy(addr.sun_path, socketPath.c_str(), socketPath.size() + 1);
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 ||
              (errno == EINPROGRESS && waitFor(fd, POLLOUT, deadline));
    std::string frame(agent::kFrameHeaderSize, '\0');
    agent::encodeFrameHeader(reinterpret_cast<unsigned char*>(frame.data()), agent::kFrameJson,
                             std::uint32_t(request.size()));
    frame += request;
    ok = ok && ::send(fd, frame.data(), frame.size(), MSG_NOSIGNAL) == ssize_t(frame.size());
    if (!ok) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Reads until `reply` holds `want` bytes (or the deadline, or the end).
bool readUpTo(int fd, std::string& reply, std::size_t want,
              std::chrono::steady_clock::time_point deadline)
{
    while (reply.size() < want) {
        if (!waitFor(fd, POLLIN, deadline))
            return false;
        char buf[256];
        ssize_t n = ::recv(fd, buf, std::min(sizeof buf, want - reply.size()), 0);
        if (n <= 0)
            return false;
        reply.append(buf, std::size_t(n));
    }
    return true;
}

} // namespace

bool pingAgent(const std::string& socketPath, int timeoutMs, const std::string& request)
{
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    const int fd = sendRequest(socketPath, request, deadline);
    if (fd < 0)
        return false;
    std::string reply;
    readUpTo(fd, reply, agent::kFrameHeaderSize + 11, deadline);
    ::close(fd);
    return reply.size() >= agent::kFrameHeaderSize && reply[0] == agent::kFrameJson &&
           reply.find("\"ok\":true") != std::string::npos;
}

std::optional<std::string> askAgent(const std::string& socketPath, int timeoutMs,
                                    const std::string& request)
{
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    const int fd = sendRequest(socketPath, request, deadline);
    if (fd < 0)
        return std::nullopt;
    std::string header;
    std::string reply;
    bool ok =
        readUpTo(fd, header, agent::kFrameHeaderSize, deadline) && header[0] == agent::kFrameJson;
    if (ok) {
        const std::uint32_t length =
            agent::decodeFrameLength(reinterpret_cast<const unsigned char*>(header.data()));
        ok = length <= kMaxAnswer && readUpTo(fd, reply, length, deadline);
    }
    ::close(fd);
    return ok ? std::optional<std::string>(std::move(reply)) : std::nullopt;
}

} // namespace lizard::runtime
