#include "runtime/processtree.h"

#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <map>
#include <set>
#include <string>

namespace lizard::runtime {

namespace {

// Parent pid from /proc/<pid>/stat (after the command name, which may contain spaces).
pid_t parentOf(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(in, line);
    const auto close = line.rfind(')');
    if (close == std::string::npos)
        return -1;
    char state = 0;
    int ppid = -1;
    if (std::sscanf(line.c_str() + close + 1, " %c %d", &state, &ppid) != 2)
        return -1;
    return pid_t(ppid);
}

} // namespace

std::vector<pid_t> processTree(pid_t root)
{
    std::multimap<pid_t, pid_t> children;
    if (DIR* dir = ::opendir("/proc")) {
        while (dirent* e = ::readdir(dir)) {
            if (!std::isdigit(static_cast<unsigned char>(e->d_name[0])))
                continue;
            const pid_t pid = pid_t(std::atoi(e->d_name));
            const pid_t parent = parentOf(pid);
            if (parent > 0)
                children.emplace(parent, pid);
        }
        ::closedir(dir);
    }
    std::vector<pid_t> out;
    if (root <= 0 || ::kill(root, 0) != 0)
        return out;
    out.push_back(root);
    for (size_t i = 0; i < out.size(); ++i) {
        auto [first, last] = children.equal_range(out[i]);
        for (auto it = first; it != last; ++it)
            out.push_back(it->second);
    }
    return out;
}

std::vector<pid_t> threadsOf(pid_t pid)
{
    std::vector<pid_t> out;
    if (DIR* dir = ::opendir(("/proc/" + std::to_string(pid) + "/task").c_str())) {
        while (dirent* e = ::readdir(dir)) {
            if (std::isdigit(static_cast<unsigned char>(e->d_name[0])))
                out.push_back(pid_t(std::atoi(e->d_name)));
        }
        ::closedir(dir);
    }
    return out;
}

int signalTree(pid_t root, int signal)
{
    std::set<pid_t> done;
    for (int round = 0; round < 20; ++round) {
        bool fresh = false;
        for (pid_t pid : processTree(root)) {
            if (done.insert(pid).second) {
                ::kill(pid, signal);
                fresh = true;
            }
        }
        if (!fresh)
            break;
    }
    return int(done.size());
}

} // namespace lizard::runtime
