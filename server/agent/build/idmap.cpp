#include "agent/build/idmap.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lizard::agent {

std::string writeProcFile(const std::string& path, const std::string& content)
{
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return path + ": " + std::strerror(errno);
    ssize_t n = ::write(fd, content.data(), content.size());
    int err = errno;
    ::close(fd);
    if (n != ssize_t(content.size()))
        return path + ": " + std::strerror(err);
    return {};
}

std::string identityMap(const char* ownMap)
{
    std::ifstream in(ownMap);
    std::string out;
    unsigned long long first = 0, lower = 0, count = 0;
    while (in >> first >> lower >> count)
        out += std::to_string(first) + " " + std::to_string(first) + " " + std::to_string(count) +
               "\n";
    return out;
}

namespace {

std::string runTool(const std::string& tool, const std::vector<std::string>& args)
{
    std::vector<char*> argv{const_cast<char*>(tool.c_str())};
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = ::fork();
    if (pid == 0) {
        ::execv(tool.c_str(), argv.data());
        ::_exit(127);
    }
    if (pid < 0)
        return "fork: " + std::string(std::strerror(errno));
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return tool + " failed (status " + std::to_string(status) +
               "); check /etc/subuid and /etc/subgid";
    return {};
}

} // namespace

std::string writeIdMaps(pid_t child, const LaunchConfig& config)
{
    const IdMap& m = config.idMap;
    const std::string proc = "/proc/" + std::to_string(child);
    if (m.kind == "root") {
        std::string line = "0 " + std::to_string(m.hostRoot) + " " + std::to_string(m.count) + "\n";
        if (auto e = writeProcFile(proc + "/uid_map", line); !e.empty())
            return e;
        return writeProcFile(proc + "/gid_map", line);
    }
    if (m.kind == "subid") {
        std::string rest = std::to_string(m.count - 1);
        if (auto e = runTool(config.newuidmap, {std::to_string(child), "0", std::to_string(m.uid),
                                                "1", "1", std::to_string(m.subUid), rest});
            !e.empty())
            return e;
        return runTool(config.newgidmap, {std::to_string(child), "0", std::to_string(m.gid), "1",
                                          "1", std::to_string(m.subGid), rest});
    }
    if (auto e = writeProcFile(proc + "/setgroups", "deny"); !e.empty())
        return e;
    if (auto e = writeProcFile(proc + "/uid_map", "0 " + std::to_string(m.uid) + " 1\n");
        !e.empty())
        return e;
    return writeProcFile(proc + "/gid_map", "0 " + std::to_string(m.gid) + " 1\n");
}

std::string becomeNamespaceRoot(const IdMap& map)
{
    if (map.kind != "single" && ::setgroups(0, nullptr) != 0)
        return std::string("setgroups: ") + std::strerror(errno);
    if (::setresgid(0, 0, 0) != 0)
        return std::string("setresgid: ") + std::strerror(errno);
    if (::setresuid(0, 0, 0) != 0)
        return std::string("setresuid: ") + std::strerror(errno);
    // Changing credentials cleared the dumpable flag; /proc/self must stay ours during setup.
    ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    return {};
}

} // namespace lizard::agent
