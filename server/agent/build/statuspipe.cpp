#include "agent/build/statuspipe.h"

#include <cerrno>
#include <chrono>
#include <poll.h>
#include <unistd.h>

namespace lizard::agent {

void sendStatus(int fd, const std::string& line)
{
    std::string msg = line + "\n";
    std::size_t done = 0;
    while (done < msg.size()) {
        ssize_t n = ::write(fd, msg.data() + done, msg.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        done += std::size_t(n);
    }
}

bool readStatus(int fd, std::string& line, int timeoutMs)
{
    // Byte by byte: several messages may arrive and each reader takes exactly one line.
    line.clear();
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                        deadline - std::chrono::steady_clock::now())
                        .count();
        if (left <= 0)
            return false;
        pollfd p{fd, POLLIN, 0};
        int r = ::poll(&p, 1, int(left));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        char c;
        ssize_t n = ::read(fd, &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        if (c == '\n')
            return true;
        line.push_back(c);
    }
}

} // namespace lizard::agent
