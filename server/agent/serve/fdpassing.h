#pragma once
// Passing file descriptors over a Unix socket (SCM_RIGHTS).

#include <cstddef>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace lizard::agent {

// One sendmsg of `bytes` with `fds` attached to its first byte, retried on EINTR: the bytes it
// sent (a stream socket may take fewer), or -1 with errno.
ssize_t sendWithFds(int socket, std::string_view bytes, const int* fds, std::size_t count);

// Sends one whole J frame (frame.h) holding `json`, with `fd` attached to its first byte.
// False if the peer is gone.
bool sendJsonWithFd(int socket, const std::string& json, int fd);

} // namespace lizard::agent
