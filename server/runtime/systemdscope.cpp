#include "runtime/systemdscope.h"

#include "common/fileutil.h"
#include "runtime/hostcommand.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace lizard::runtime {

namespace {

std::string firstLine(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

long long cpuQuotaUs(double cpus)
{
    return std::llround(cpus * 100000.0);
}

} // namespace

std::vector<std::string> SystemdScope::properties(const Limits& limits)
{
    // CPUQuota in percent of one CPU; systemd writes "<quota> 100000" to cpu.max.
    return {"TasksMax=" + std::to_string(limits.pidsMax),
            "MemoryMax=" + std::to_string((long long)limits.memoryMb * 1024 * 1024),
            "MemorySwapMax=0", "CPUQuota=" + std::to_string(cpuQuotaUs(limits.cpus) / 1000) + "%"};
}

void SystemdScope::probe()
{
    if (::getuid() == 0)
        return void(m_note = "not needed as root");
    if (!pathExists("/sys/fs/cgroup/cgroup.controllers"))
        return void(m_note = "no systemd scope: /sys/fs/cgroup is not cgroup v2");
    const std::string run = findHostProgram("systemd-run");
    if (run.empty())
        return void(m_note = "no systemd scope: systemd-run is not installed");
    const char* runtimeDir = std::getenv("XDG_RUNTIME_DIR");
    if (runtimeDir == nullptr || !pathExists(std::string(runtimeDir) + "/systemd/private"))
        return void(
            m_note =
                "no systemd scope: no systemd user manager ($XDG_RUNTIME_DIR/systemd/private)");
    const Limits probeLimits{0.5, 64, 16};
    std::vector<std::string> argv{run, "--user", "--scope", "--quiet", "--collect"};
    for (const auto& p : properties(probeLimits)) {
        argv.push_back("-p");
        argv.push_back(p);
    }
    // The probe's own cgroup must show what was asked for (controllers may not be delegated).
    argv.insert(argv.end(),
                {"--", "/bin/sh", "-c",
                 "d=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup); "
                 "test \"$(cat $d/pids.max)\" = 16 && test \"$(cat $d/memory.max)\" = 67108864 && "
                 "test \"$(cat $d/cpu.max)\" = '50000 100000'"});
    if (Status s = runHostCommand(argv, 10000); !s)
        return void(m_note =
                        "no systemd scope: the user manager's scopes do not get cpu, memory and "
                        "pids limits (" +
                        s.error().message + ")");
    m_systemdRun = run;
}

std::vector<std::string> SystemdScope::prefix(const std::string& id, const Limits& limits) const
{
    std::vector<std::string> argv{m_systemdRun, "--user",    "--scope",
                                  "--quiet",    "--collect", "--unit=lizard-" + id};
    for (const auto& p : properties(limits)) {
        argv.push_back("-p");
        argv.push_back(p);
    }
    argv.push_back("--");
    return argv;
}

bool SystemdScope::enforced(pid_t pid, const Limits& limits, const std::string& cgroupRoot)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/cgroup");
    std::string line, path;
    while (std::getline(in, line)) {
        if (line.rfind("0::", 0) == 0)
            path = line.substr(3);
    }
    if (path.empty())
        return false;
    const std::string dir = cgroupRoot + path;
    return firstLine(dir + "/pids.max") == std::to_string(limits.pidsMax) &&
           firstLine(dir + "/memory.max") ==
               std::to_string((long long)limits.memoryMb * 1024 * 1024) &&
           firstLine(dir + "/cpu.max") == std::to_string(cpuQuotaUs(limits.cpus)) + " 100000";
}

} // namespace lizard::runtime
