// Restart of lizard-local with running sandboxes: a server of its own (the shared one of
// bench.sh keeps serving the other figures), N sandboxes started in it, then SIGTERM and a new
// start on the same data directory and port until every sandbox is listed running again
// (adopted). The figure is that whole span; the note splits it into stop and start.
#include "benchmarks.h"
#include "stats.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <arpa/inet.h>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <regex>
#include <spawn.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace lizard::bench {

using nlohmann::json;

namespace {

// A free loopback port, so every start of the server listens on the same one.
int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 0;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0)
        ::close(fd);
    return port;
}

// One lizard-local process on a fixed data directory and port, its output in a log file.
class ServerProcess
{
public:
    ServerProcess(std::string bin, std::string dataDir, int port)
        : m_bin(std::move(bin)), m_dataDir(std::move(dataDir)), m_port(port),
          m_log(std::filesystem::path(m_dataDir).parent_path() / "server.log")
    {
    }
    ~ServerProcess() { stop(); }

    // Starts it and waits until it printed its URL; the key file is read on the first start.
    bool start(std::string& error)
    {
        const auto from = std::filesystem::exists(m_log) ? std::filesystem::file_size(m_log) : 0;
        const std::string port = std::to_string(m_port);
        std::vector<std::string> argv{m_bin, "--port", port, "--data-dir", m_dataDir};
        std::vector<char*> args;
        for (std::string& a : argv)
            args.push_back(a.data());
        args.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, m_log.c_str(),
                                         O_WRONLY | O_CREAT | O_APPEND, 0600);
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
        const int rc = posix_spawn(&m_pid, m_bin.c_str(), &actions, nullptr, args.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        if (rc != 0) {
            m_pid = -1;
            error = m_bin + ": " + std::strerror(rc);
            return false;
        }
        static const std::regex listening("listening on http://127\\.0\\.0\\.1:\\d+");
        static const std::regex keyFile("key file: (\\S+)");
        const auto begin = Clock::now();
        while (msSince(begin) < 60000) { // the first start may build the sandbox templates
            std::ifstream in(m_log);
            in.seekg(std::streamoff(from));
            std::stringstream out;
            out << in.rdbuf();
            const std::string text = out.str();
            std::smatch key;
            if (std::regex_search(text, listening) && std::regex_search(text, key, keyFile)) {
                if (m_key.empty()) {
                    std::ifstream k(key[1].str());
                    std::getline(k, m_key);
                }
                if (m_key.empty())
                    error = "no key in " + key[1].str();
                return !m_key.empty();
            }
            if (waitpid(m_pid, nullptr, WNOHANG) == m_pid) {
                m_pid = -1;
                error = "lizard-local exited at start: " +
                        text.substr(text.size() > 600 ? text.size() - 600 : 0);
                return false;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        error = "lizard-local did not report its URL within 60 s";
        return false;
    }

    // SIGTERM and wait (SIGKILL after 15 s): sandboxes keep running, as in a real restart.
    void stop()
    {
        if (m_pid <= 0)
            return;
        ::kill(m_pid, SIGTERM);
        const auto begin = Clock::now();
        while (waitpid(m_pid, nullptr, WNOHANG) == 0) {
            if (msSince(begin) > 15000) {
                ::kill(m_pid, SIGKILL);
                waitpid(m_pid, nullptr, 0);
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        m_pid = -1;
    }

    bool running() const { return m_pid > 0; }
    void movePort(int port) { m_port = port; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
    const std::string& key() const { return m_key; }

private:
    std::string m_bin, m_dataDir;
    int m_port;
    std::filesystem::path m_log;
    std::string m_key;
    pid_t m_pid = -1;
};

// Polls the list until every id in `ids` is there and running (the restart adopted them).
bool allRunning(ApiClient& api, const std::vector<std::string>& ids, std::string& error)
{
    const auto begin = Clock::now();
    std::string last;
    while (msSince(begin) < 30000) {
        const HttpResponse r = api.request("GET", "/api/sandboxes");
        const json list = json::parse(r.body, nullptr, false);
        size_t running = 0;
        if (r.ok() && list.is_array()) {
            for (const json& s : list)
                running += s.value("status", "") == "running" &&
                           std::find(ids.begin(), ids.end(), s.value("sandboxId", "")) != ids.end();
            if (running == ids.size())
                return true;
        }
        last = r.ok() ? std::to_string(running) + " of " + std::to_string(ids.size()) + " running"
                      : r.describe();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    error = "the restarted server did not list every sandbox running within 30 s (" + last + ")";
    return false;
}

} // namespace

Figure measureRestart(const std::string& localBin, int sandboxes, int runs)
{
    Figure f{.name = "restart with " + std::to_string(sandboxes) + " sandboxes",
             .statistic = "median of " + std::to_string(runs),
             .unit = "ms",
             .target = 1000};
    std::string dirTemplate =
        (std::filesystem::temp_directory_path() / "lizard-bench-restart-XXXXXX").string();
    if (mkdtemp(dirTemplate.data()) == nullptr) {
        f.error = std::string("mkdtemp: ") + std::strerror(errno);
        return f;
    }
    const std::filesystem::path dir = dirTemplate;
    std::filesystem::create_directories(dir / "data");
    {
        ServerProcess server(localBin, (dir / "data").string(), freePort());
        std::string error;
        if (!server.start(error)) {
            f.error = error;
        } else {
            ApiClient api(server.url(), server.key());
            Session session(api); // deletes the sandboxes before the server stops
            std::vector<std::string> ids;
            if (!session.ensureProject())
                error = session.error();
            for (int i = 0; error.empty() && i < sandboxes; ++i) {
                const std::string id = session.createRunning(600000);
                if (id.empty())
                    error = session.error();
                ids.push_back(id);
            }
            std::vector<double> total, stops, starts;
            for (int i = 0; error.empty() && i < runs; ++i) {
                const auto begin = Clock::now();
                server.stop();
                stops.push_back(msSince(begin));
                const auto started = Clock::now();
                if (server.start(error) && allRunning(api, ids, error)) {
                    starts.push_back(msSince(started));
                    total.push_back(msSince(begin));
                }
            }
            if (!error.empty()) {
                f.error = error;
                std::string ignored;
                // So that the sandboxes get deleted: they outlive a stopped server by design.
                // The session deletes them on the same port; if another process took that port
                // meanwhile, a server on a new one deletes them here.
                if (!server.running() && !server.start(ignored)) {
                    server.movePort(freePort());
                    if (server.start(ignored)) {
                        ApiClient moved(server.url(), server.key());
                        for (const std::string& id : ids)
                            moved.request("DELETE", "/api/sandboxes/" + id);
                    }
                }
            } else {
                f.value = median(total);
                char note[128];
                std::snprintf(note, sizeof note,
                              "stop %.0f ms + start to all adopted %.0f ms; max %.0f ms",
                              median(stops), median(starts), quantile(total, 1));
                f.note = note;
            }
        }
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    return f;
}

} // namespace lizard::bench
