#include "runtime/agentping.h"

#include "agent/serve/frame.h"

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

} // namespace

bool pingAgent(const std::string& socketPath, int timeoutMs, const std::string& request)
{
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (socketPath.size() >= sizeof addr.sun_path)
        return false;
    std::memcpy(addr.sun_path, socketPath.c_str(), socketPath.size() + 1);
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return false;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 ||
              (errno == EINPROGRESS && waitFor(fd, POLLOUT, deadline));
    std::string frame(agent::kFrameHeaderSize, '\0');
    agent::encodeFrameHeader(reinterpret_cast<unsigned char*>(frame.data()), agent::kFrameJson,
                             std::uint32_t(request.size()));
    frame += request;
    ok = ok && ::send(fd, frame.data(), frame.size(), MSG_NOSIGNAL) == ssize_t(frame.size());
    std::string reply;
    while (ok && reply.size() < agent::kFrameHeaderSize + 11) {
        if (!waitFor(fd, POLLIN, deadline))
            break;
        char buf[256];
        ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            break;
        reply.append(buf, std::size_t(n));
    }
    ::close(fd);
    return ok && reply.size() >= agent::kFrameHeaderSize && reply[0] == agent::kFrameJson &&
           reply.find("\"ok\":true") != std::string::npos;
}

} // namespace lizard::runtime
