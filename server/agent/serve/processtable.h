#pragma once
// The exec'd commands that still run in this sandbox, and signalling of process trees.

#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>
#include <unordered_map>
#include <vector>

namespace lizard::agent {

struct TrackedProcess
{
    pid_t pid = 0;
    std::vector<std::string> argv;
    std::string cwd;
    std::int64_t startedAtMs = 0;
};

class ProcessTable
{
public:
    void add(TrackedProcess process);
    void remove(pid_t pid);
    nlohmann::json list() const;
    // The argv each tracked command was started with, by pid.
    std::unordered_map<pid_t, std::vector<std::string>> argvs() const;

    // Signals `pid` and all its descendants if pid is a tracked command or a descendant of
    // one. False if it is neither (NO_SUCH_PROCESS).
    bool signalTree(pid_t pid, int sig) const;

private:
    mutable std::mutex m_mutex;
    std::unordered_map<pid_t, TrackedProcess> m_processes;
    // Execs under way per pid: the runner zygote's resident process serves one run after
    // another, and one exec may still be ending when the next one starts.
    std::unordered_map<pid_t, int> m_holds;
};

// Sends `sig` to the process group `leader` leads and to every descendant of `leader`
// (found by walking /proc). For SIGKILL it repeats to catch processes forked meanwhile.
void signalProcessTree(pid_t leader, int sig);

// pid → parent pid for every process in this pid namespace.
std::unordered_map<pid_t, pid_t> readParentMap();

} // namespace lizard::agent
