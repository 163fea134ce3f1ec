#include "runtime/procinfo.h"

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace lizard::runtime {

std::optional<ProcStat> readProcStat(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line))
        return std::nullopt;
    auto close = line.rfind(')');
    if (close == std::string::npos)
        return std::nullopt;
    std::istringstream rest(line.substr(close + 2));
    ProcStat st;
    rest >> st.state;
    std::string field;
    // After the state come fields 4..21: field 9 is the flags, field 22 the start time.
    for (int i = 4; i <= 21 && rest >> field; ++i) {
        if (i == 9)
            st.flags = std::strtoul(field.c_str(), nullptr, 10);
        else if (i == 20)
            st.threads = std::strtol(field.c_str(), nullptr, 10);
    }
    rest >> st.startTime;
    if (!rest)
        return std::nullopt;
    return st;
}

bool processMatches(pid_t pid, unsigned long long startTime)
{
    // A killed PID 1 of a pid namespace stays in its exit path until the kernel has killed
    // and reaped everything inside; it is gone all the same.
    constexpr unsigned long kExiting = 0x4; // PF_EXITING
    auto st = pid > 0 ? readProcStat(pid) : std::nullopt;
    return st && st->state != 'Z' && st->state != 'X' && !(st->flags & kExiting) &&
           st->startTime == startTime;
}

bool processRemains(pid_t pid, unsigned long long startTime)
{
    // The thread group leader turns zombie as soon as it has exited, while another of its
    // threads may still be in the exit path: then the thread count says more than one.
    auto st = pid > 0 ? readProcStat(pid) : std::nullopt;
    return st && st->startTime == startTime &&
           !((st->state == 'Z' || st->state == 'X') && st->threads <= 1);
}

bool stopPending(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    const unsigned long long stopBit = 1ull << (SIGSTOP - 1);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("SigPnd:", 0) == 0 || line.rfind("ShdPnd:", 0) == 0) {
            if (std::strtoull(line.c_str() + 7, nullptr, 16) & stopBit)
                return true;
        }
    }
    return false;
}

std::string selfExeDir()
{
    char buf[4096];
    ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return ".";
    std::string path(buf, std::size_t(n));
    auto slash = path.find_last_of('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

pid_t innermostPid(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("NSpid:", 0) != 0)
            continue;
        const auto last = line.find_last_of(" \t");
        return last == std::string::npos ? 0 : pid_t(std::atoi(line.c_str() + last + 1));
    }
    return 0;
}

} // namespace lizard::runtime
