#include "serverprocess.h"

#include "stats.h"

#include <arpa/inet.h>
#include <csignal>
#include <cstring>
#include <fcntl.h>
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

ServerProcess::ServerProcess(std::string bin, std::string dataDir, int port,
                             std::vector<std::string> extraArgs)
    : m_bin(std::move(bin)), m_dataDir(std::move(dataDir)), m_port(port),
      m_extraArgs(std::move(extraArgs)),
      m_log(std::filesystem::path(m_dataDir).parent_path() / "server.log")
{
}

bool ServerProcess::start(std::string& error)
{
    const auto from = std::filesystem::exists(m_log) ? std::filesystem::file_size(m_log) : 0;
    const std::string port = std::to_string(m_port);
    // No warm pools: the restart and activity figures measure the sandboxes they start, not
    // copies refilled in the background.
    std::vector<std::string> argv{m_bin,     "--port",     port, "--data-dir",
                                  m_dataDir, "--pool-max", "0"};
    argv.insert(argv.end(), m_extraArgs.begin(), m_extraArgs.end());
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

void ServerProcess::stop()
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

} // namespace lizard::bench
