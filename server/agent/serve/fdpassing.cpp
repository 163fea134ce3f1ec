#include "agent/serve/fdpassing.h"

#include "agent/serve/frame.h"

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <vector>

namespace lizard::agent {

ssize_t sendWithFds(int socket, std::string_view bytes, const int* fds, std::size_t count)
{
    iovec iov{const_cast<char*>(bytes.data()), bytes.size()};
    std::vector<char> control(CMSG_SPACE(sizeof(int) * count));
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.data();
    msg.msg_controllen = control.size();
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * count);
    std::memcpy(CMSG_DATA(c), fds, sizeof(int) * count);
    ssize_t n;
    do
        n = ::sendmsg(socket, &msg, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n;
}

bool sendJsonWithFd(int socket, const std::string& json, int fd)
{
    std::string frame(kFrameHeaderSize, '\0');
    encodeFrameHeader(reinterpret_cast<unsigned char*>(frame.data()), kFrameJson,
                      uint32_t(json.size()));
    frame += json;
    const ssize_t n = sendWithFds(socket, frame, &fd, 1);
    if (n < 0)
        return false;
    // The rest (rare: a full socket buffer) goes without the descriptor.
    std::size_t sent = std::size_t(n);
    while (sent < frame.size()) {
        ssize_t m = ::send(socket, frame.data() + sent, frame.size() - sent, MSG_NOSIGNAL);
        if (m < 0 && errno == EINTR)
            continue;
        if (m <= 0)
            return false;
        sent += std::size_t(m);
    }
    return true;
}

} // namespace lizard::agent
