#include "sandboxes/logwatch.h"

#include "common/fileutil.h"
#include "common/timeutil.h"
#include "sandboxes/sandboxmanager.h"

#include <fstream>
#include <regex>
#include <set>
#include <sys/stat.h>

namespace lizard::sandboxes {

namespace net = http::net;

struct AgentExit
{
    int64_t ts = 0;
    std::string pid, signal, comm, command;
};

namespace {

constexpr auto kInterval = std::chrono::milliseconds(250);
constexpr size_t kMaxReadPerTick = 256 * 1024;
// A SIGKILL exit may reach agent.log a little after the cgroup counted its OOM kill: wait
// this many ticks for it before logging the kill without a name.
constexpr int kOomMatchTicks = 4;

const std::regex& exitLine()
{
    static const std::regex re(
        R"(^lizard-agent: exit-signal ts=(\d+) pid=(\d+) signal=(\S+) comm=(.{0,16}?) cmd=(.*)$)");
    return re;
}

std::string stripPrefix(const std::string& line)
{
    static const std::string prefix = "lizard-agent: ";
    return line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : line;
}

// "pid 14 (python3)", then ": <command line>" when it was an exec's own process.
std::string named(const AgentExit& e)
{
    std::string out = "pid " + e.pid + (e.comm.empty() ? "" : " (" + e.comm + ")");
    return out;
}

std::string commandOf(const AgentExit& e)
{
    return e.command.empty() ? std::string() : ": " + e.command;
}

} // namespace

LogWatch::LogWatch(store::Store& store, SandboxManager& sandboxes, net::io_context& ioc,
                   net::thread_pool& workers, std::string dataDir)
    : m_store(store), m_sandboxes(sandboxes), m_workers(workers), m_dataDir(std::move(dataDir)),
      m_timer(std::make_shared<net::steady_timer>(ioc))
{
}

void LogWatch::start()
{
    schedule();
}

void LogWatch::stop()
{
    m_stopped = true;
    net::post(m_timer->get_executor(), [timer = m_timer] { timer->cancel(); });
}

void LogWatch::schedule()
{
    if (m_stopped)
        return;
    m_timer->expires_after(kInterval);
    m_timer->async_wait([this](boost::system::error_code ec) {
        if (ec || m_stopped)
            return;
        net::post(m_workers, [this] {
            tick();
            schedule();
        });
    });
}

void LogWatch::tick()
{
    std::set<std::string> alive;
    for (const auto& rec : m_store.runningSandboxes()) {
        alive.insert(rec->id);
        auto [it, fresh] = m_seen.try_emplace(rec->id);
        if (fresh) { // first sight since lizard-local started: go on where the last one stopped
            std::ifstream pos(dirOf(rec->id) + "/system.log.pos");
            pos >> it->second.offset >> it->second.ooms;
        }
        watch(*rec, it->second);
    }
    std::erase_if(m_seen, [&](const auto& kv) { return !alive.count(kv.first); });
}

void LogWatch::readAgentLog(const std::string& id, Seen& seen, std::vector<AgentExit>& exits)
{
    const std::string path = dirOf(id) + "/agent.log";
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) != 0)
        return;
    if (uint64_t(st.st_size) < seen.offset)
        seen.offset = 0; // a new file
    if (uint64_t(st.st_size) == seen.offset)
        return;
    std::ifstream in(path, std::ios::binary);
    in.seekg(std::streamoff(seen.offset));
    std::string chunk(std::min<uint64_t>(kMaxReadPerTick, st.st_size - seen.offset), '\0');
    in.read(chunk.data(), std::streamsize(chunk.size()));
    chunk.resize(size_t(in.gcount()));
    size_t start = 0;
    for (size_t nl; (nl = chunk.find('\n', start)) != std::string::npos; start = nl + 1) {
        const std::string line = chunk.substr(start, nl - start);
        std::smatch m;
        if (std::regex_match(line, m, exitLine())) {
            exits.push_back(
                {std::stoll(m[1].str()), m[2].str(), m[3].str(), m[4].str(), m[5].str()});
        } else if (!line.empty()) {
            const std::string text = stripPrefix(line);
            const bool fatal = text.find("fatal") != std::string::npos;
            m_sandboxes.logs().append(id, fatal ? "error" : "warn", "agent", text);
        }
    }
    // A line still being written stays for the next tick, unless it alone fills the read.
    seen.offset += start > 0 || chunk.size() < kMaxReadPerTick ? start : chunk.size();
}

void LogWatch::watch(const store::SandboxRecord& rec, Seen& seen)
{
    const uint64_t offsetBefore = seen.offset;
    const long long oomsBefore = seen.ooms;
    std::vector<AgentExit> exits;
    readAgentLog(rec.id, seen, exits);
    // After the log: an OOM kill counted now has its exit line in this read or a later one.
    const long long ooms = m_sandboxes.oomKills(rec.handle);
    if (ooms >= 0 && seen.ooms >= 0 && ooms > seen.ooms)
        seen.pendingOoms += ooms - seen.ooms;
    if (ooms >= 0)
        seen.ooms = ooms;
    auto& log = m_sandboxes.logs();
    const std::string limit = " (out of memory, limit " + std::to_string(rec.memoryMb) + " MiB)";
    for (const AgentExit& e : exits) {
        if (e.signal == "SIGKILL" && seen.pendingOoms > 0) {
            --seen.pendingOoms;
            log.append(rec.id, "error", "kernel",
                       "OOM: killed " + e.pid + " " + e.comm + limit + commandOf(e), e.ts);
        } else {
            log.append(rec.id, "warn", "agent", named(e) + " killed by " + e.signal + commandOf(e),
                       e.ts);
        }
    }
    if (seen.pendingOoms > 0 && ++seen.pendingTicks >= kOomMatchTicks) {
        // Not a child of the agent (a shell's child, say): the kernel did not say which.
        for (; seen.pendingOoms > 0; --seen.pendingOoms)
            log.append(rec.id, "error", "kernel", "OOM: killed a process" + limit);
    }
    if (seen.pendingOoms == 0)
        seen.pendingTicks = 0;
    if (seen.offset != offsetBefore || seen.ooms != oomsBefore)
        (void)writeFileAtomic(dirOf(rec.id) + "/system.log.pos",
                              std::to_string(seen.offset) + " " + std::to_string(seen.ooms) + "\n",
                              0600);
}

} // namespace lizard::sandboxes
