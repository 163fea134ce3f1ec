#pragma once
// The terminals of every sandbox: creating them (through the sandbox's agent), finding them,
// closing them, and their limits. A terminal's record stays after its program ended, so that
// a client that comes back learns how it ended, until it is closed or the sandbox is gone.

#include "common/result.h"
#include "sandboxes/terminals/terminalsession.h"

#include <boost/asio/any_io_executor.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace lizard::sandboxes {

class ActivityLog;

struct TerminalRequest
{
    std::vector<std::string> argv; // empty: the user's login shell
    std::map<std::string, std::string> env;
    std::string user = "user";
    std::string cwd; // empty: the user's home
    std::string name;
    int cols = 80;
    int rows = 24;
    std::string createdBy; // the key's name, for the activity log
};

class TerminalHub
{
public:
    static constexpr int kMaxRunningPerSandbox = 8;
    // Ended terminals kept per sandbox beyond the running ones (oldest dropped first).
    static constexpr int kMaxEndedPerSandbox = 8;

    explicit TerminalHub(boost::asio::any_io_executor ex);
    // Where opening and closing are recorded (null: nowhere); set before serving.
    void setActivity(ActivityLog* activity) { m_activity = activity; }

    // `done` runs on an executor thread. TOO_MANY_TERMINALS at the limit; the agent's errors
    // (UNKNOWN_USER, NOT_FOUND for a cwd, SPAWN_FAILED for a command) as they come.
    void create(const std::string& sandboxId, const std::string& agentSocket,
                TerminalRequest request, std::function<void(Result<TerminalInfo>)> done);
    std::vector<TerminalInfo> list(const std::string& sandboxId) const;
    std::shared_ptr<TerminalSession> find(const std::string& sandboxId,
                                          const std::string& terminalId) const;
    // Ends the program (if it runs) and forgets the terminal. NOT_FOUND.
    Status close(const std::string& sandboxId, const std::string& terminalId,
                 const std::string& by);
    // How many of the sandbox's terminals run (fork and snapshot say what they do not copy).
    int running(const std::string& sandboxId) const;
    // The sandbox is gone: its sessions end with it (their agent connection closed already).
    void forget(const std::string& sandboxId);

private:
    struct Entry
    {
        std::shared_ptr<TerminalSession> session;
    };
    struct SandboxTerminals
    {
        std::vector<Entry> entries; // oldest first
        int starting = 0;           // creates in flight, counted against the limit
    };
    void record(const std::string& sandboxId, nlohmann::json fields);
    void trimEnded(SandboxTerminals& st);

    boost::asio::any_io_executor m_ex;
    ActivityLog* m_activity = nullptr;
    mutable std::mutex m_mutex;
    std::map<std::string, SandboxTerminals> m_sandboxes;
};

} // namespace lizard::sandboxes
