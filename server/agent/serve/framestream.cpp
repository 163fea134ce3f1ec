#include "agent/serve/framestream.h"

#include "agent/serve/frame.h"

#include <cerrno>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

namespace lizard::agent {

bool FrameStream::readExact(char* out, std::size_t size)
{
    std::size_t done = 0;
    while (done < size) {
        ssize_t n = ::recv(m_fd, out + done, size - done, 0);
        if (n > 0) {
            done += std::size_t(n);
        } else if (n == 0) {
            return false;
        } else if (errno != EINTR) {
            return false;
        }
    }
    return true;
}

bool FrameStream::readFrame(char& type, std::string& payload)
{
    unsigned char header[kFrameHeaderSize];
    if (!readExact(reinterpret_cast<char*>(header), sizeof header))
        return false;
    std::uint32_t length = decodeFrameLength(header);
    if (length > kMaxFramePayload)
        return false;
    type = char(header[0]);
    payload.resize(length);
    return length == 0 || readExact(payload.data(), length);
}

void FrameStream::setStallHandler(std::chrono::steady_clock::time_point deadline,
                                  std::function<void()> onStall)
{
    m_stallDeadline = deadline;
    m_onStall = std::move(onStall);
}

bool FrameStream::waitWritable()
{
    for (;;) {
        int timeoutMs = -1;
        if (m_onStall) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            m_stallDeadline - std::chrono::steady_clock::now())
                            .count();
            timeoutMs = left > 0 ? int(left) : 0;
        }
        pollfd p{m_fd, POLLOUT, 0};
        int r = ::poll(&p, 1, timeoutMs);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return false;
        if (r == 0) {
            auto handler = std::move(m_onStall);
            m_onStall = nullptr;
            handler();
            continue;
        }
        if (p.revents & (POLLERR | POLLHUP | POLLNVAL))
            return false;
        return true;
    }
}

bool FrameStream::writeFrame(char type, const char* data, std::size_t size)
{
    unsigned char header[kFrameHeaderSize];
    encodeFrameHeader(header, type, std::uint32_t(size));
    iovec iov[2] = {{header, sizeof header}, {const_cast<char*>(data), size}};
    std::size_t total = sizeof header + size;
    std::size_t sent = 0;
    while (sent < total) {
        // Skip what was already sent across the two buffers.
        iovec cur[2];
        int count = 0;
        std::size_t skip = sent;
        for (auto& v : iov) {
            if (skip >= v.iov_len) {
                skip -= v.iov_len;
                continue;
            }
            cur[count].iov_base = static_cast<char*>(v.iov_base) + skip;
            cur[count].iov_len = v.iov_len - skip;
            skip = 0;
            ++count;
        }
        msghdr msg{};
        msg.msg_iov = cur;
        msg.msg_iovlen = std::size_t(count);
        ssize_t n = ::sendmsg(m_fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n >= 0) {
            sent += std::size_t(n);
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            if (!waitWritable())
                return false;
        } else if (errno != EINTR) {
            return false;
        }
    }
    return true;
}

bool FrameStream::writeJson(const nlohmann::json& value)
{
    std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return writeFrame(kFrameJson, text.data(), text.size());
}

bool FrameStream::writeError(const std::string& code, const std::string& message)
{
    return writeJson({{"ok", false}, {"code", code}, {"message", message}});
}

} // namespace lizard::agent
