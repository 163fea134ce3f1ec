#pragma once
// A streamed exec (Accept: text/event-stream): agent output → SSE events. While one HTTP write
// is under way the next output is encoded behind it, and the whole of that goes out in the
// next write; the agent is read on until kExecStreamQueued bytes of events wait, then only once
// the write is done (backpressure). A client that hangs up cancels the exec.

#include "api/eventstream.h"
#include "api/keystreams.h"
#include "api/sseencoder.h"
#include "runtime/agentclient.h"
#include "sandboxes/execactivity.h"

#include <functional>
#include <memory>

namespace lizard::api {

// Event bytes an exec stream encodes ahead of its HTTP writes before it stops reading the agent.
inline constexpr size_t kExecStreamQueued = 256 * 1024;

class ExecStream : public Revocable, public EventStream
{
public:
    ExecStream(std::shared_ptr<http::Exchange> exchange, std::string socketPath,
               runtime::ExecRequest request, bool pidEvent);
    // Called when the agent's connection broke (SANDBOX_UNREACHABLE): it may have died.
    void onUnreachable(std::function<void()> fn) { m_unreachable = std::move(fn); }
    // The sandbox's OOM kill count (-1: unknown): a command killed by SIGKILL while it grew
    // ends with "oomKilled": true, so the caller can tell the OOM killer from a kill.
    void setOomCounter(std::function<long long()> counter) { m_oomKills = std::move(counter); }
    // Where the exec is recorded (null: not recorded).
    void setActivity(std::shared_ptr<sandboxes::ExecActivity> a) { m_activity = std::move(a); }
    void start();
    // The key was revoked: an error event ends the stream (or a 401 before it began), and
    // the command is killed.
    void revoke() override { revokeOnExecutor(); }

private:
    void onStarted(int pid);
    void onOutput(runtime::OutStream stream, std::string_view chunk, std::function<void()> resume);
    void onExit(int exitCode, bool timedOut);
    void onError(const Error& error);
    // Writes what m_pending holds unless a write of it is under way.
    void flushPending();
    void onWritten();
    void cancel() override;
    void endRevoked() override;

    runtime::AgentClient m_agent;
    runtime::ExecRequest m_request;
    bool m_pidEvent;
    std::function<void()> m_unreachable;
    std::shared_ptr<runtime::Cancel> m_cancel;
    std::function<long long()> m_oomKills;
    long long m_oomKillsBefore = -1;
    std::shared_ptr<sandboxes::ExecActivity> m_activity;
    LineSplitter m_stdout{"stdout"};
    LineSplitter m_stderr{"stderr"};
    std::string m_pending;          // events not yet handed to the writer
    bool m_writing = false;         // a write of earlier events is under way
    std::function<void()> m_resume; // held while m_pending is full
};

// A non-streamed exec: collects up to 512 KiB per stream, answers {stdout, stderr, exitCode,
// truncated?} at the end.
class ExecCollect : public Revocable, public std::enable_shared_from_this<ExecCollect>
{
public:
    ExecCollect(std::shared_ptr<http::Exchange> exchange, std::string socketPath,
                runtime::ExecRequest request);
    void onUnreachable(std::function<void()> fn) { m_unreachable = std::move(fn); }
    void setActivity(std::shared_ptr<sandboxes::ExecActivity> a) { m_activity = std::move(a); }
    void start();
    void revoke() override; // answers 401 KEY_REVOKED and kills the command

private:
    std::shared_ptr<http::Exchange> m_ex;
    runtime::AgentClient m_agent;
    runtime::ExecRequest m_request;
    std::string m_stdout;
    std::string m_stderr;
    bool m_truncated = false;
    bool m_finished = false;
    std::shared_ptr<sandboxes::ExecActivity> m_activity;
    std::function<void()> m_unreachable;
    std::shared_ptr<runtime::Cancel> m_cancel;
};

} // namespace lizard::api
