#include "agent/build/pidcounter.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

namespace lizard::agent {

void startPidsAfter(int floor)
{
    if (floor <= 0)
        return;
    int pidMax = 32768;
    std::ifstream("/proc/sys/kernel/pid_max") >> pidMax;
    // Leave room for a sandbox's worth of processes before the counter wraps to low pids.
    if (floor > pidMax - 4096) {
        std::fprintf(
            stderr, "lizard-agent: pid counter left at 1: the source's pid %d is near pid_max %d\n",
            floor, pidMax);
        return;
    }
    std::FILE* f = std::fopen("/proc/sys/kernel/ns_last_pid", "w");
    bool ok = f != nullptr;
    if (f) {
        ok = std::fprintf(f, "%d", floor) > 0;
        ok = std::fclose(f) == 0 && ok;
    }
    if (!ok)
        std::fprintf(stderr, "lizard-agent: setting ns_last_pid to %d: %s\n", floor,
                     std::strerror(errno));
}

} // namespace lizard::agent
