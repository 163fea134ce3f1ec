#include "agent/serve/processtree.h"

#include "agent/serve/processtable.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <unordered_map>

namespace lizard::agent {

namespace {

constexpr std::size_t kMaxCommand = 4096; // bytes of a command line in the reply

std::string readWhole(const std::string& path, std::size_t limit)
{
    std::ifstream in(path, std::ios::binary);
    std::string out(limit, '\0');
    in.read(out.data(), std::streamsize(limit));
    out.resize(std::size_t(in.gcount()));
    return out;
}

// uid → name from the sandbox's own /etc/passwd, read once per listing.
std::unordered_map<long, std::string> userNames()
{
    std::unordered_map<long, std::string> names;
    std::ifstream passwd("/etc/passwd");
    std::string line;
    while (std::getline(passwd, line)) {
        std::istringstream fields(line);
        std::string name, password, uid;
        if (std::getline(fields, name, ':') && std::getline(fields, password, ':') &&
            std::getline(fields, uid, ':')) {
            char* end = nullptr;
            const long id = std::strtol(uid.c_str(), &end, 10);
            if (end != uid.c_str() && *end == '\0')
                names.emplace(id, name);
        }
    }
    return names;
}

long realUid(const std::string& dir)
{
    std::ifstream status(dir + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("Uid:", 0) == 0)
            return std::strtol(line.c_str() + 4, nullptr, 10);
    return -1;
}

long long bootTimeMs()
{
    std::ifstream stat("/proc/stat");
    std::string key;
    long long value = 0;
    while (stat >> key) {
        if (key == "btime" && stat >> value)
            return value * 1000;
        stat.ignore(1 << 20, '\n');
    }
    return 0;
}

struct StatFields
{
    char state = '?';
    long ppid = 0;
    unsigned long long cpuTicks = 0;
    long threads = 0;
    unsigned long long startTicks = 0;
    std::string comm;
};

bool parseStat(const std::string& line, StatFields& f)
{
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const auto open = line.find('(');
    const auto close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open)
        return false;
    f.comm = line.substr(open + 1, close - open - 1);
    std::istringstream rest(line.substr(close + 2));
    std::vector<std::string> v;
    std::string field;
    while (v.size() < 20 && rest >> field)
        v.push_back(field);
    if (v.size() < 20)
        return false;
    // v[0] is field 3 (state); utime and stime are fields 14 and 15, threads 20, start 22.
    f.state = v[0].empty() ? '?' : v[0][0];
    f.ppid = std::strtol(v[1].c_str(), nullptr, 10);
    f.cpuTicks =
        std::strtoull(v[11].c_str(), nullptr, 10) + std::strtoull(v[12].c_str(), nullptr, 10);
    f.threads = std::strtol(v[17].c_str(), nullptr, 10);
    f.startTicks = std::strtoull(v[19].c_str(), nullptr, 10);
    return true;
}

// A command the runner zygote forked (runnerzygote.h) has the zygote's command line in /proc;
// it is listed with the argv its exec asked for, as a started python3 would show it.
bool forkedByZygote(const nlohmann::json& cmd)
{
    static const std::string marker = "# The warm python3 of lizard-agent's runner zygote";
    return cmd.size() >= 3 && cmd[0] == "python3" && cmd[1] == "-c" &&
           cmd[2].get<std::string>().rfind(marker, 0) == 0;
}

std::string joined(const std::vector<std::string>& argv)
{
    std::string command;
    for (const auto& arg : argv)
        command += (command.empty() ? "" : " ") + arg;
    return command;
}

// argv within kMaxCommand bytes, as /proc's command line is read.
std::vector<std::string> capped(const std::vector<std::string>& argv)
{
    std::vector<std::string> out;
    std::size_t left = kMaxCommand;
    for (const auto& arg : argv) {
        if (left == 0)
            break;
        out.push_back(arg.substr(0, left));
        left -= std::min(left, arg.size() + 1);
    }
    return out;
}

nlohmann::json describe(long pid, const std::unordered_map<long, std::string>& names,
                        long long bootMs, long ticks, long pageSize)
{
    const std::string dir = "/proc/" + std::to_string(pid);
    StatFields f;
    if (!parseStat(readWhole(dir + "/stat", 4096), f))
        return nullptr;
    std::string raw = readWhole(dir + "/cmdline", kMaxCommand);
    std::vector<std::string> argv;
    for (std::size_t start = 0; start < raw.size();) {
        const auto end = raw.find('\0', start);
        argv.push_back(
            raw.substr(start, end == std::string::npos ? std::string::npos : end - start));
        start = end == std::string::npos ? raw.size() : end + 1;
    }
    std::string command = joined(argv);
    if (command.empty())
        command = "[" + f.comm + "]"; // a zombie, or a process that cleared its arguments
    std::istringstream statm(readWhole(dir + "/statm", 256));
    long long size = 0, resident = 0;
    statm >> size >> resident;
    const long uid = realUid(dir);
    const auto name = names.find(uid);
    return {{"pid", pid},
            {"ppid", f.ppid},
            {"uid", uid},
            {"user", name == names.end() ? std::to_string(uid) : name->second},
            {"state", std::string(1, f.state)},
            {"name", f.comm},
            {"command", command},
            {"cmd", argv},
            {"cpuMs", (long long)(f.cpuTicks * 1000 / std::max(1L, ticks))},
            {"rssBytes", resident * pageSize},
            {"threads", f.threads},
            {"startedAt", bootMs + (long long)(f.startTicks * 1000 / std::max(1L, ticks))}};
}

} // namespace

nlohmann::json readProcessTree(const ProcessTable& tracked)
{
    const auto names = userNames();
    const long long bootMs = bootTimeMs();
    const long ticks = ::sysconf(_SC_CLK_TCK);
    const long pageSize = ::sysconf(_SC_PAGESIZE);
    const auto exec = tracked.argvs();
    auto processes = nlohmann::json::array();
    bool truncated = false;
    if (DIR* dir = ::opendir("/proc")) {
        while (dirent* e = ::readdir(dir)) {
            char* end = nullptr;
            const long pid = std::strtol(e->d_name, &end, 10);
            if (*end != '\0' || pid <= 0)
                continue;
            if (processes.size() >= kMaxTreeProcesses) {
                truncated = true;
                break;
            }
            nlohmann::json p = describe(pid, names, bootMs, ticks, pageSize);
            if (p.is_null())
                continue; // it ended while the walk read it
            const auto started = exec.find(pid_t(pid));
            p["exec"] = started != exec.end();
            if (started != exec.end() && forkedByZygote(p["cmd"])) {
                const auto argv = capped(started->second);
                p["cmd"] = argv;
                p["command"] = joined(argv);
            }
            if (pid == 1)
                p["system"] = true;
            processes.push_back(std::move(p));
        }
        ::closedir(dir);
    }
    std::sort(processes.begin(), processes.end(), [](const auto& a, const auto& b) {
        return a["pid"].template get<long>() < b["pid"].template get<long>();
    });
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    return {{"processes", processes},
            {"sampledAt", std::chrono::duration_cast<std::chrono::milliseconds>(now).count()},
            {"truncated", truncated}};
}

std::string signalSandboxProcess(pid_t pid, int sig, bool tree, std::string& message)
{
    if (pid == 1) {
        message =
            "pid 1 is the sandbox's init (lizard-agent): kill, pause or close the sandbox instead";
        return "PERMISSION_DENIED";
    }
    if (::kill(pid, 0) != 0) {
        message = "no process " + std::to_string(pid) + " is running in this sandbox";
        return "NO_SUCH_PROCESS";
    }
    if (tree)
        signalProcessTree(pid, sig);
    else
        ::kill(pid, sig);
    return "";
}

} // namespace lizard::agent
