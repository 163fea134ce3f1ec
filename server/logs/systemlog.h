#pragma once
// The system logs of all sandboxes: appends (any thread) go to the sandbox's LogFile and to
// the live listeners of its log stream, in sequence order.

#include "logs/logfile.h"

#include <functional>
#include <map>
#include <mutex>
#include <string>

namespace lizard::logs {

class SystemLog
{
public:
    // Called with each new line, and with nullptr once when the sandbox ended. It runs under
    // the log's lock (that keeps lines in order): post the work elsewhere, never call back.
    using Listener = std::function<void(const LogLine*)>;

    void setDataDir(std::string dir);
    // Sees every line written, of every sandbox (under the log's lock, like a listener): how
    // the metrics sampler learns of lifecycle events. Set before serving.
    using Tap = std::function<void(const std::string& sandboxId, const LogLine& line)>;
    void setTap(Tap tap);

    void append(const std::string& sandboxId, std::string level, std::string source,
                std::string message, int64_t ts = 0);

    struct Subscription
    {
        uint64_t token = 0;        // 0: the sandbox is gone, nothing was registered
        std::vector<LogLine> tail; // the last lines; the listener gets every later one
    };
    Subscription subscribe(const std::string& sandboxId, size_t tailLines, Listener listener);
    void unsubscribe(const std::string& sandboxId, uint64_t token);
    // The sandbox ended (after its directory was removed): listeners get nullptr and go.
    void end(const std::string& sandboxId);

private:
    struct Sandbox
    {
        uint64_t lastSeq = 0;
        std::map<uint64_t, Listener> listeners;
    };
    Sandbox& stateLocked(const std::string& id);
    std::string dirOf(const std::string& id) const { return m_dataDir + "/sandboxes/" + id; }

    std::mutex m_mutex;
    std::string m_dataDir;
    Tap m_tap;
    std::map<std::string, Sandbox> m_sandboxes;
    uint64_t m_nextToken = 1;
};

} // namespace lizard::logs
