#include "agent/build/netguard.h"

#include "agent/build/routenetlink.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

// slirp4netns' default network is 10.0.2.0/24; we never pass --cidr.
constexpr const char* kSlirpGateway = "10.0.2.2/32";
constexpr const char* kLinkLocal4 = "169.254.0.0/16";
constexpr int kSlirpReadyTimeoutMs = 15000; // the launcher waits 20 s for PID 1

// ENOENT is fine: a kernel without IPv6, or tap0 not created yet.
std::string writeSysctl(const char* path, const std::string& value)
{
    int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? std::string() : std::string(path) + ": " + std::strerror(errno);
    const bool ok = ::write(fd, value.data(), value.size()) == ssize_t(value.size());
    const int err = errno;
    ::close(fd);
    return ok ? std::string() : std::string(path) + ": " + std::strerror(err);
}

// Before PID 1 becomes non-dumpable (SlirpPipes). A slirp4netns that fails closes its end,
// so this waits the whole time only for one that hangs (the launcher kills that one).
void waitForSlirp(const SlirpPipes& pipes)
{
    if (pipes.initRead < 0)
        return;
    ::close(pipes.slirpWrite);
    ::close(pipes.launcherRead);
    pollfd p{pipes.initRead, POLLIN, 0};
    char c = 0;
    if (::poll(&p, 1, kSlirpReadyTimeoutMs) == 1 && ::read(pipes.initRead, &c, 1) == 1) {
        [[maybe_unused]] auto w = ::write(pipes.initRelay, &c, 1);
    }
    ::close(pipes.initRead);
    ::close(pipes.initRelay);
}

} // namespace

std::vector<std::string> sandboxBlockedPrefixes(std::string* error)
{
    auto host = localAddressPrefixes(error);
    if (error && !error->empty())
        return {};
    std::vector<std::string> out{kSlirpGateway, kLinkLocal4};
    out.insert(out.end(), host.begin(), host.end());
    return out;
}

void tuneSandboxNetwork(const LaunchConfig& config)
{
    if (config.blockedPrefixes.empty())
        return;
    // slirp4netns may create tap0 at any moment: "default" covers a later tap0, the second
    // write one that already exists.
    std::string errors;
    auto note = [&](const std::string& e) {
        errors += (errors.empty() || e.empty() ? "" : "; ") + e;
    };
    for (const char* path : {"/proc/sys/net/ipv6/conf/default/disable_ipv6",
                             "/proc/sys/net/ipv6/conf/tap0/disable_ipv6"})
        note(writeSysctl(path, "1"));
    const unsigned lastGid = config.idMap.kind == "single" ? 0 : config.idMap.count - 1;
    note(writeSysctl("/proc/sys/net/ipv4/ping_group_range", "0 " + std::to_string(lastGid)));
    if (!errors.empty())
        std::fprintf(stderr, "lizard-agent: network settings: %s\n", errors.c_str());
}

std::string installNetGuard(const LaunchConfig& config)
{
    if (config.blockedPrefixes.empty())
        return {};
    if (auto e = addProhibitRoutes(config.blockedPrefixes); !e.empty())
        return e;
    waitForSlirp(config.slirpReady);
    return {};
}

} // namespace lizard::agent
