#include "agent/build/allowpolicy.h"

#include "agent/build/fibrules.h"
#include "agent/serve/dnsforwarder.h"

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <sstream>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

constexpr const char* kSlirpDns = "10.0.2.3"; // slirp4netns' default; the template's resolv.conf
constexpr unsigned kDnsAliasPriority = 10;
constexpr unsigned kCidrPriority = 100;
constexpr unsigned kRestPriority = 32000; // before the main table's rule (32766)

int bindDnsListener(std::string& error)
{
    int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(53);
    ::inet_pton(AF_INET, kSlirpDns, &a.sin_addr);
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        error = std::string("DNS listener on ") + kSlirpDns + ":53: " + std::strerror(errno);
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    return fd;
}

std::string startForwarder(const LaunchConfig& config, int upstreamFd, int logFd)
{
    if (auto e = addLoopbackAddress(std::string(kSlirpDns) + "/32"); !e.empty())
        return e;
    std::string error;
    const int listenFd = bindDnsListener(error);
    if (listenFd < 0)
        return error;
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
        ::prctl(PR_SET_NAME, "lizard-dns", 0, 0, 0); // apart from PID 1 in ps
        ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
        // Nothing of PID 1's: in particular not the launcher's stdout, whose end lizard-local
        // waits for.
        const int devNull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
        ::dup2(devNull, 0);
        ::dup2(devNull, 1);
        ::dup2(logFd >= 0 ? logFd : devNull, 2);
        // Parked high first: either may already be 3 or 4.
        const int listenHigh = ::fcntl(listenFd, F_DUPFD_CLOEXEC, 100);
        const int upstreamHigh = upstreamFd >= 0 ? ::fcntl(upstreamFd, F_DUPFD_CLOEXEC, 100) : -1;
        ::dup3(listenHigh, 3, O_CLOEXEC);
        if (upstreamHigh >= 0)
            ::dup3(upstreamHigh, 4, O_CLOEXEC);
        ::close_range(upstreamHigh >= 0 ? 5 : 4, ~0U, 0);
        runDnsForwarder(3, upstreamHigh >= 0 ? 4 : -1, config.allowNames);
    }
    ::close(listenFd);
    if (upstreamFd >= 0)
        ::close(upstreamFd);
    if (pid < 0)
        return std::string("fork for the DNS forwarder: ") + std::strerror(errno);
    return {};
}

} // namespace

std::string installAllowList(const LaunchConfig& config, int upstreamFd, int logFd)
{
    if (!config.allowList) {
        if (upstreamFd >= 0)
            ::close(upstreamFd);
        return {};
    }
    // The final prohibit first: from the first rule on, nothing but the list gets through.
    if (auto e = addFibRule({kRestPriority, "", false, 0}); !e.empty())
        return e;
    if (auto e = addFibRule({kDnsAliasPriority, std::string(kSlirpDns) + "/32", false, 0});
        !e.empty())
        return e;
    for (const auto& cidr : config.allowCidrs) {
        if (auto e = addFibRule({kCidrPriority, cidr, true, 0}); !e.empty())
            return e;
    }
    if (config.allowNames.empty()) {
        if (upstreamFd >= 0)
            ::close(upstreamFd);
        return {};
    }
    return startForwarder(config, upstreamFd, logFd);
}

int openDnsUpstream(const std::string& upstream, std::string* error)
{
    std::string host = upstream;
    int port = 53;
    if (host.empty()) {
        std::ifstream in("/etc/resolv.conf");
        for (std::string line; host.empty() && std::getline(in, line);) {
            std::istringstream words(line);
            std::string key, value;
            in_addr probe{};
            if (words >> key >> value && key == "nameserver" &&
                ::inet_pton(AF_INET, value.c_str(), &probe) == 1)
                host = value;
        }
        if (host.empty())
            return -1; // offline host: the forwarder answers SERVFAIL (dnsforwarder.h)
    } else if (const auto colon = host.rfind(':'); colon != std::string::npos) {
        port = std::atoi(host.c_str() + colon + 1);
        host.resize(colon);
    }
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(uint16_t(port));
    if (port <= 0 || port > 65535 || ::inet_pton(AF_INET, host.c_str(), &a.sin_addr) != 1) {
        *error = "DNS upstream is not IPv4:port: " + upstream;
        return -1;
    }
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        *error = "DNS upstream socket: " + std::string(std::strerror(errno));
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    return fd;
}

} // namespace lizard::agent
