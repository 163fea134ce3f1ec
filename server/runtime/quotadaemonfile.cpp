#include "runtime/quotadaemonfile.h"

#include "runtime/procinfo.h"

#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

namespace lizard::runtime {

void recordQuotaDaemon(const std::string& sandboxDir, pid_t pid)
{
    const auto st = readProcStat(pid);
    std::ofstream(sandboxDir + "/quotafs.pid") << pid << " " << (st ? st->startTime : 0) << "\n";
}

void endQuotaDaemon(const std::string& sandboxDir, int graceMs)
{
    pid_t pid = 0;
    unsigned long long start = 0;
    if (std::ifstream in(sandboxDir + "/quotafs.pid"); !(in >> pid >> start) || pid <= 1)
        return;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(graceMs);
    while (processMatches(pid, start) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (processMatches(pid, start))
        ::kill(pid, SIGKILL);
}

} // namespace lizard::runtime
