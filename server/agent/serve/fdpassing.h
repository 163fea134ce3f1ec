#pragma once
// Passing file descriptors over a Unix socket (SCM_RIGHTS).

#include <cstddef>
#include <string_view>
#include <sys/types.h>

namespace lizard::agent {

// One sendmsg of `bytes` with `fds` attached to its first byte, retried on EINTR: the bytes it
// sent (a stream socket may take fewer), or -1 with errno.
ssize_t sendWithFds(int socket, std::string_view bytes, const int* fds, std::size_t count);

} // namespace lizard::agent
