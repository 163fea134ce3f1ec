#include "runtime/hostkeeper.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lizard::runtime {

namespace {

Error keeperError(const std::string& what)
{
    return Error{ErrorKind::Unavailable, "KEEPER_UNAVAILABLE", what + ": " + std::strerror(errno)};
}

} // namespace

Status startHostKeeper(const std::string& agentPath, const nlohmann::json& config)
{
    const int self = int(::syscall(SYS_pidfd_open, ::getpid(), 0));
    if (self < 0)
        return keeperError("pidfd_open");
    int in[2];
    if (::pipe2(in, O_CLOEXEC) != 0) {
        ::close(self);
        return keeperError("pipe");
    }
    const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    const std::string text = config.dump();
    // Between fork and exec only calls that are safe in a child of a threaded process.
    const pid_t child = ::fork();
    if (child == 0) {
        // The middle process exits at once: the keeper is reparented away from the server,
        // which then never reaps it, and its own session keeps a terminal's Ctrl+C from it.
        ::setsid();
        if (::fork() != 0)
            ::_exit(0);
        ::dup2(in[0], 0);
        if (null >= 0) {
            ::dup2(null, 1);
            ::dup2(null, 2);
        }
        if (self == 3)
            ::fcntl(3, F_SETFD, 0); // dup2 onto itself would keep close-on-exec
        else
            ::dup2(self, 3);
        ::close_range(4, ~0U, 0);
        ::execl(agentPath.c_str(), "lizard-agent", "keep", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    const int err = errno;
    ::close(in[0]);
    ::close(self);
    if (null >= 0)
        ::close(null);
    if (child < 0) {
        ::close(in[1]);
        errno = err;
        return keeperError("fork");
    }
    // A few hundred bytes: far below a pipe's buffer, so this write never waits for the keeper.
    const bool written = ::write(in[1], text.data(), text.size()) == ssize_t(text.size());
    ::close(in[1]);
    while (::waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
    }
    if (!written)
        return keeperError("writing the keeper's configuration");
    return okStatus();
}

} // namespace lizard::runtime
