#include "runtime/proc_info.h"

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
    // After the state come fields 4..21; field 22 is the start time.
    for (int i = 4; i <= 21 && rest >> field; ++i) {
    }
    rest >> st.startTime;
    if (!rest)
        return std::nullopt;
    return st;
}

bool processMatches(pid_t pid, unsigned long long startTime)
{
    if (pid <= 0)
        return false;
    auto st = readProcStat(pid);
    return st && st->state != 'Z' && st->state != 'X' && st->startTime == startTime;
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

} // namespace lizard::runtime
