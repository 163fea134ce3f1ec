#include "agent/quotafs/quotafsdaemon.h"

#include "agent/build/rlimits.h"
#include "agent/quotafs/quotafs.h"
#include "agent/quotafs/quotafsconfinement.h"
#include "agent/tools/usagewalk.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <string>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace lizard::agent::quotafs {

namespace {

int g_log = -1;

void logLine(const std::string& text)
{
    if (g_log < 0)
        return;
    const std::string line = "lizard-agent quotafs: " + text + "\n";
    [[maybe_unused]] auto w = ::write(g_log, line.data(), line.size());
}

void answer(int channel, const std::string& text)
{
    [[maybe_unused]] auto w = ::send(channel, text.data(), text.size(), MSG_NOSIGNAL);
}

[[noreturn]] void fail(int channel, const std::string& text)
{
    logLine(text);
    answer(channel, "E " + text);
    ::_exit(1);
}

// The two descriptors the setup sends (/dev/fuse, its user namespace), within the timeout.
bool receive(int channel, int fds[2])
{
    pollfd p{channel, POLLIN, 0};
    if (::poll(&p, 1, kQuotaFsSetupTimeoutMs) != 1)
        return false;
    char byte = 0;
    iovec iov{&byte, 1};
    alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))];
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    if (::recvmsg(channel, &msg, MSG_CMSG_CLOEXEC) != 1)
        return false;
    const cmsghdr* c = CMSG_FIRSTHDR(&msg);
    if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
        c->cmsg_len != CMSG_LEN(2 * sizeof(int)))
        return false;
    std::memcpy(fds, CMSG_DATA(c), 2 * sizeof(int));
    return true;
}

// One serving thread: a request in, its reply out, until the connection is gone.
void serve(int dev, QuotaFs& fs)
{
    std::vector<char> request(kRequestBuffer);
    FuseReply reply(kMaxWrite + 4096);
    for (;;) {
        const ssize_t n = ::read(dev, request.data(), request.size());
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == ENOENT)
                continue; // ENOENT: the request was interrupted before it was read
            // ENODEV: the mount is gone (the sandbox ended); anything else cannot be served.
            if (errno != ENODEV)
                logLine(std::string("reading /dev/fuse: ") + std::strerror(errno));
            ::_exit(errno == ENODEV ? 0 : 1);
        }
        fs.handle(request.data(), std::size_t(n), reply);
        if (!reply.wanted())
            continue;
        const char* message = reply.message();
        if (::write(dev, message, reply.size()) < 0 && errno == ENODEV)
            ::_exit(0); // ENOENT (the kernel dropped an interrupted request) is not an error
        if (fs.destroyed())
            ::_exit(0);
    }
}

} // namespace

void runQuotaFsDaemon(const QuotaFsDaemonConfig& config)
{
    g_log = config.log;
    ::setsid();
    for (int sig : {SIGHUP, SIGINT, SIGPIPE, SIGTERM})
        std::signal(sig, SIG_IGN);
    lowerOomScore(); // while it has the host's credentials: the sandbox dies with it
    ::umask(0);      // the kernel has applied the caller's umask to every mode it sends
    int fds[2] = {-1, -1};
    if (!receive(config.channel, fds))
        ::_exit(1); // the setup ended before it mounted anything
    const int dev = fds[0];
    // Root of the sandbox's user namespace: the owner of every file the sandbox may own.
    if (::setns(fds[1], CLONE_NEWUSER) != 0)
        fail(config.channel,
             std::string("joining the sandbox's user namespace: ") + std::strerror(errno));
    ::close(fds[1]);
    const UsageTotals used = measureTree(config.backing, INT_MAX);
    if (used.partial)
        fail(config.channel, "the layer directory could not be measured completely");
    // Each inode the kernel knows is an open descriptor: half of what this process may open, the
    // rest for open files.
    rlimit nofile{};
    ::getrlimit(RLIMIT_NOFILE, &nofile);
    nofile.rlim_cur = nofile.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &nofile);
    QuotaFsOptions options;
    options.limits = config.limits;
    options.usedBytes = std::int64_t(used.bytes);
    options.usedInodes = std::int64_t(used.files);
    options.maxFds = nofile.rlim_cur > 512 ? std::size_t(nofile.rlim_cur - 256) / 2 : 128;
    static QuotaFs fs(config.backing, options);
    if (auto e = confineQuotaFs(config.backing); !e.empty())
        fail(config.channel, e);
    std::vector<std::thread> threads;
    try {
        for (int i = 0; i < kQuotaFsThreads; ++i)
            threads.emplace_back(serve, dev, std::ref(fs));
    } catch (const std::exception& e) {
        fail(config.channel, std::string("starting its threads: ") + e.what());
    }
    if (auto e = installQuotaFsSeccomp(); !e.empty())
        fail(config.channel, e);
    // The sandbox's log is the user's: a working quota says nothing, a weaker confinement does.
    if (!quotaFsLandlocked())
        logLine("no Landlock on this kernel: confined by its capabilities and seccomp only");
    answer(config.channel, "R");
    ::close(config.channel);
    for (auto& t : threads)
        t.join();
    ::_exit(0);
}

} // namespace lizard::agent::quotafs
