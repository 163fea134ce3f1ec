#pragma once
// A lizard-local of a benchmark's own (the shared one of bench.sh keeps serving the other
// figures): one process on a fixed data directory and port, its output in a log file beside
// the data directory.

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace lizard::bench {

// A free loopback port, so every start of the server listens on the same one.
int freePort();

class ServerProcess
{
public:
    // `extraArgs`: more lizard-local options, e.g. {"--no-activity"}.
    ServerProcess(std::string bin, std::string dataDir, int port,
                  std::vector<std::string> extraArgs = {});
    ~ServerProcess() { stop(); }
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;

    // Starts it and waits until it printed its URL; the key file is read on the first start.
    bool start(std::string& error);
    // SIGTERM and wait (SIGKILL after 15 s): sandboxes keep running, as in a real restart.
    void stop();

    bool running() const { return m_pid > 0; }
    void movePort(int port) { m_port = port; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
    const std::string& key() const { return m_key; }

private:
    std::string m_bin, m_dataDir;
    int m_port;
    std::vector<std::string> m_extraArgs;
    std::filesystem::path m_log;
    std::string m_key;
    pid_t m_pid = -1;
};

} // namespace lizard::bench
