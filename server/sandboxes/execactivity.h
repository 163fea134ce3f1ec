#pragma once
// What one exec leaves in the activity log: argv or command, cwd, user, the names (never the
// values) of its env variables, times, exit code, byte counts and the first and last 64 KiB
// of each stream. An exec that carries a code runner invocation (the official SDK's runCode
// or our own runner: python3 -c <runner source> <base64 JSON>) is recorded as a "runCode"
// entry instead: its context, language and code, and the runner's events.

#include "runtime/agentclient.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace lizard::sandboxes {

class ActivityLog;
class ServeRuns;

inline constexpr size_t kActivityCaptureBytes = 64 * 1024;
inline constexpr size_t kActivityEventBytes = 16 << 20; // runner events kept per run

// The first and last kActivityCaptureBytes of a stream, and its length.
class StreamCapture
{
public:
    void feed(std::string_view chunk);
    void store(nlohmann::json& entry, const std::string& name) const;

private:
    std::string m_head;
    std::string m_tail; // up to 2× the capture, trimmed when it grows past that
    uint64_t m_bytes = 0;
};

// A stream cut into lines across its chunks. A line that grows past `maxLine` loses the rest
// (and `overflowed()` says so): the runner splits big events into "part" lines.
class LineReader
{
public:
    explicit LineReader(size_t maxLine) : m_maxLine(maxLine) {}
    template <typename F> void feed(std::string_view chunk, F&& each)
    {
        size_t nl;
        while ((nl = chunk.find('\n')) != std::string_view::npos) {
            if (m_partial.empty()) {
                each(chunk.substr(0, nl));
            } else {
                m_partial.append(chunk.substr(0, nl));
                each(std::string_view(m_partial));
                m_partial.clear();
            }
            chunk.remove_prefix(nl + 1);
        }
        if (m_partial.size() + chunk.size() <= m_maxLine)
            m_partial.append(chunk);
        else
            m_overflowed = true;
    }
    template <typename F> void finish(F&& each)
    {
        if (!m_partial.empty())
            each(std::string_view(m_partial));
        m_partial.clear();
    }
    bool overflowed() const { return m_overflowed; }

private:
    size_t m_maxLine;
    std::string m_partial;
    bool m_overflowed = false;
};

// The runner's JSON-lines events, "part" pieces joined.
class RunnerEvents
{
public:
    void feed(std::string_view chunk);
    void finish();
    // One event (a parsed line of `size` bytes). Returns the type of the event it completed:
    // its own, or a joined one's once its last "part" came; empty while parts are pending or
    // when it was dropped.
    std::string add(nlohmann::json ev, size_t size);
    nlohmann::json take() { return std::move(m_events); }
    // The "message" of the last event kept (a "fatal" says what failed), or a general text.
    std::string lastMessage() const;
    bool truncated() const { return m_truncated || m_lines.overflowed(); }

private:
    void line(std::string_view text);

    LineReader m_lines{kActivityEventBytes};
    std::string m_part;
    nlohmann::json m_events = nlohmann::json::array();
    size_t m_bytes = 0;
    bool m_truncated = false;
};

class ExecActivity
{
public:
    // Null when the log is off. `housekeeping`: a client's own background command (the app's
    // port scan, header X-Lizard-Housekeeping: 1): marked so, with byte counts but no output,
    // so that polling neither fills the log nor reads as the agent's work.
    static std::shared_ptr<ExecActivity> start(ActivityLog* log, const std::string& sandboxId,
                                               const runtime::ExecRequest& request,
                                               bool housekeeping = false);
    // The agent ran it from its warm runner zygote (the official SDK's runCode): "warmRunner".
    void warmRunner() { m_entry["warmRunner"] = true; }
    void output(runtime::OutStream stream, std::string_view chunk);
    void exited(int exitCode, bool timedOut);
    void failed(const std::string& code, const std::string& message);
    ~ExecActivity(); // an exec that never ended (client gone) is recorded as cancelled

private:
    ExecActivity(ActivityLog* log, std::string sandboxId, nlohmann::json entry,
                 std::optional<nlohmann::json> runner);
    void finish(nlohmann::json fields);

    ActivityLog* m_log;
    std::string m_sandboxId;
    nlohmann::json m_entry;
    bool m_runCode = false;
    bool m_keepOutput = true;
    int64_t m_startMs;
    StreamCapture m_stdout;
    StreamCapture m_stderr;
    RunnerEvents m_events;
    std::unique_ptr<ServeRuns> m_serve; // a serve-mode runner: its runs are entries of their own
    bool m_done = false;
};

// The runner arguments of an exec's argv, when it is a runner invocation.
std::optional<nlohmann::json> runnerInvocation(const std::vector<std::string>& argv);

} // namespace lizard::sandboxes
