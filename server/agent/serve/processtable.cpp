#include "agent/serve/processtable.h"

#include <csignal>
#include <dirent.h>
#include <fstream>
#include <sstream>

namespace lizard::agent {

void ProcessTable::add(TrackedProcess process)
{
    std::lock_guard lock(m_mutex);
    pid_t pid = process.pid;
    m_processes[pid] = std::move(process);
    ++m_holds[pid];
}

void ProcessTable::remove(pid_t pid)
{
    std::lock_guard lock(m_mutex);
    if (const auto it = m_holds.find(pid); it != m_holds.end() && --it->second > 0)
        return;
    m_holds.erase(pid);
    m_processes.erase(pid);
}

nlohmann::json ProcessTable::list() const
{
    std::lock_guard lock(m_mutex);
    auto out = nlohmann::json::array();
    for (const auto& [pid, p] : m_processes) {
        std::string command;
        for (const auto& arg : p.argv)
            command += (command.empty() ? "" : " ") + arg;
        out.push_back({{"pid", pid},
                       {"cmd", p.argv},
                       {"command", command},
                       {"cwd", p.cwd},
                       {"startedAt", p.startedAtMs}});
    }
    return out;
}

std::unordered_map<pid_t, std::vector<std::string>> ProcessTable::argvs() const
{
    std::lock_guard lock(m_mutex);
    std::unordered_map<pid_t, std::vector<std::string>> out;
    for (const auto& [pid, p] : m_processes)
        out.emplace(pid, p.argv);
    return out;
}

std::unordered_map<pid_t, pid_t> readParentMap()
{
    std::unordered_map<pid_t, pid_t> parents;
    DIR* dir = ::opendir("/proc");
    if (!dir)
        return parents;
    while (dirent* e = ::readdir(dir)) {
        char* end = nullptr;
        long pid = std::strtol(e->d_name, &end, 10);
        if (*end != '\0' || pid <= 0)
            continue;
        std::ifstream stat("/proc/" + std::string(e->d_name) + "/stat");
        std::string line;
        if (!std::getline(stat, line))
            continue;
        // The command name may contain spaces and parentheses: parse after the last ')'.
        auto close = line.rfind(')');
        if (close == std::string::npos)
            continue;
        std::istringstream rest(line.substr(close + 1));
        std::string state;
        long ppid = 0;
        rest >> state >> ppid;
        parents[pid_t(pid)] = pid_t(ppid);
    }
    ::closedir(dir);
    return parents;
}

static std::vector<pid_t> descendantsOf(pid_t root, const std::unordered_map<pid_t, pid_t>& parents)
{
    std::vector<pid_t> out;
    std::vector<pid_t> frontier{root};
    while (!frontier.empty()) {
        pid_t current = frontier.back();
        frontier.pop_back();
        for (const auto& [pid, ppid] : parents) {
            if (ppid == current) {
                out.push_back(pid);
                frontier.push_back(pid);
            }
        }
    }
    return out;
}

void signalProcessTree(pid_t leader, int sig)
{
    int passes = sig == SIGKILL ? 3 : 1;
    for (int i = 0; i < passes; ++i) {
        // Stop the tree first for SIGKILL so nothing forks between the walk and the kill.
        if (sig == SIGKILL)
            ::kill(-leader, SIGSTOP);
        auto parents = readParentMap();
        for (pid_t pid : descendantsOf(leader, parents)) {
            if (sig == SIGKILL)
                ::kill(pid, SIGSTOP);
        }
        parents = readParentMap();
        auto all = descendantsOf(leader, parents);
        ::kill(-leader, sig);
        ::kill(leader, sig);
        for (pid_t pid : all)
            ::kill(pid, sig);
    }
}

bool ProcessTable::signalTree(pid_t pid, int sig) const
{
    std::vector<pid_t> roots;
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [tracked, p] : m_processes)
            roots.push_back(tracked);
    }
    auto parents = readParentMap();
    bool known = false;
    for (pid_t root : roots) {
        if (root == pid)
            known = true;
        for (pid_t d : descendantsOf(root, parents))
            if (d == pid)
                known = true;
    }
    if (!known)
        return false;
    // The tracked command leads its own process group: signal the group too.
    bool isLeader = false;
    for (pid_t root : roots)
        isLeader = isLeader || root == pid;
    if (isLeader)
        ::kill(-pid, sig);
    ::kill(pid, sig);
    for (pid_t d : descendantsOf(pid, parents))
        ::kill(d, sig);
    return true;
}

} // namespace lizard::agent
