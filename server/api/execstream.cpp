#include "api/execstream.h"

#include "api/agenterroranswers.h"
#include "api/execrequest.h"
#include "common/log.h"

#include <csignal>
#include <utility>

namespace lizard::api {

ExecStream::ExecStream(std::shared_ptr<http::Exchange> exchange, std::string socketPath,
                       runtime::ExecRequest request, bool pidEvent)
    : EventStream(std::move(exchange)), m_agent(m_ex->executor(), std::move(socketPath)),
      m_request(std::move(request)), m_pidEvent(pidEvent)
{
}

void ExecStream::start()
{
    auto self = selfAs<ExecStream>();
    cancelOnHangUp();
    runtime::ExecHandlers h;
    h.onStarted = [self](int pid) { self->onStarted(pid); };
    h.onOutput = [self](runtime::OutStream stream, std::string_view chunk,
                        std::function<void()> resume) {
        self->onOutput(stream, chunk, std::move(resume));
    };
    h.onExit = [self](int code, bool timedOut) { self->onExit(code, timedOut); };
    h.onError = [self](const Error& e) { self->onError(e); };
    h.onWarmRunner = [self] {
        if (self->m_activity)
            self->m_activity->warmRunner();
    };
    if (m_oomKills)
        m_oomKillsBefore = m_oomKills();
    m_cancel = m_agent.exec(m_request, std::move(h));
}

void ExecStream::cancel()
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_cancel)
        m_cancel->cancel(); // the agent kills the command's tree
    m_writer->abort();
}

void ExecStream::endRevoked()
{
    // onError first: it marks the stream finished, so whatever the cancelled exec still
    // reports is ignored.
    auto cancel = m_cancel;
    onError(keyRevoked());
    if (cancel)
        cancel->cancel();
}

void ExecStream::onStarted(int pid)
{
    if (m_finished)
        return;
    m_writer->begin(200, "text/event-stream", std::nullopt);
    if (m_pidEvent)
        m_writer->write(sseEvent({{"pid", pid}}));
}

void ExecStream::onOutput(runtime::OutStream stream, std::string_view chunk,
                          std::function<void()> resume)
{
    if (m_finished)
        return;
    if (m_activity)
        m_activity->output(stream, chunk);
    (stream == runtime::OutStream::Stdout ? m_stdout : m_stderr).feed(chunk, m_pending);
    flushPending();
    // The agent is read on while the client keeps up; past the mark only once a write is done.
    if (m_pending.size() < kExecStreamQueued)
        return resume();
    m_resume = std::move(resume);
}

void ExecStream::flushPending()
{
    if (m_writing || m_pending.empty())
        return;
    m_writing = true;
    std::weak_ptr<ExecStream> weak = selfAs<ExecStream>();
    m_writer->write(std::exchange(m_pending, std::string()), [weak] {
        if (auto self = weak.lock())
            self->onWritten();
    });
}

void ExecStream::onWritten()
{
    m_writing = false;
    if (m_finished)
        return;
    flushPending();
    if (m_resume && m_pending.size() < kExecStreamQueued)
        std::exchange(m_resume, nullptr)();
}

void ExecStream::onExit(int exitCode, bool timedOut)
{
    if (m_finished)
        return;
    m_finished = true;
    m_resume = nullptr;
    // Behind a write under way, if any: the writer keeps the order.
    std::string tail = std::exchange(m_pending, std::string());
    m_stdout.flush(tail);
    m_stderr.flush(tail);
    nlohmann::json last = {{"exitCode", exitCode}};
    if (timedOut)
        last["timedOut"] = true;
    if (exitCode == 128 + SIGKILL && m_oomKillsBefore >= 0 && m_oomKills() > m_oomKillsBefore)
        last["oomKilled"] = true;
    tail += sseEvent(last);
    m_writer->write(std::move(tail));
    m_writer->end();
    m_cancel.reset();
    // After the answer is on its way: the log is not on the round trip.
    if (m_activity)
        m_activity->exited(exitCode, timedOut);
}

void ExecStream::onError(const Error& error)
{
    if (m_finished)
        return;
    if (const auto spawn = spawnFailure(error); spawn && !m_writer->begun()) {
        m_writer->begin(200, "text/event-stream", std::nullopt);
        std::string text;
        if (m_activity)
            m_activity->output(runtime::OutStream::Stderr, spawn->stderrText);
        m_stderr.feed(spawn->stderrText, text);
        m_writer->write(std::move(text));
        return onExit(spawn->exitCode, false);
    }
    m_finished = true;
    m_resume = nullptr;
    m_cancel.reset();
    if (m_activity)
        m_activity->failed(error.code, error.message);
    if (error.code == "SANDBOX_UNREACHABLE" && m_unreachable)
        m_unreachable();
    if (!m_writer->begun())
        return m_ex->replyError(apiErrorFromAgent(error));
    // Mid-stream: say what happened, then cut the stream so that the client cannot mistake
    // it for a normal end (the SDK would report exit code 0).
    log::warn("exec stream failed: " + error.message);
    if (!m_pending.empty()) // the output that came before the failure, then why it was cut
        m_writer->write(std::exchange(m_pending, std::string()));
    m_writer->abortAfter(errorData(error));
}

ExecCollect::ExecCollect(std::shared_ptr<http::Exchange> exchange, std::string socketPath,
                         runtime::ExecRequest request)
    : m_ex(std::move(exchange)), m_agent(m_ex->executor(), std::move(socketPath)),
      m_request(std::move(request))
{
}

void ExecCollect::revoke()
{
    std::weak_ptr<ExecCollect> weak = shared_from_this();
    http::net::post(m_ex->executor(), [weak] {
        auto s = weak.lock();
        if (!s || s->m_finished)
            return;
        s->m_finished = true;
        auto cancel = std::move(s->m_cancel);
        s->m_ex->replyError(keyRevoked());
        if (cancel)
            cancel->cancel();
    });
}

void ExecCollect::start()
{
    auto self = shared_from_this();
    std::weak_ptr<ExecCollect> weak = self;
    m_ex->onClientGone([weak] {
        auto s = weak.lock();
        if (!s || s->m_finished)
            return;
        s->m_finished = true;
        if (s->m_cancel)
            s->m_cancel->cancel();
    });
    runtime::ExecHandlers h;
    h.onStarted = [](int) {};
    h.onWarmRunner = [self] {
        if (self->m_activity)
            self->m_activity->warmRunner();
    };
    h.onOutput = [self](runtime::OutStream stream, std::string_view chunk,
                        std::function<void()> resume) {
        if (self->m_activity)
            self->m_activity->output(stream, chunk);
        std::string& buf = stream == runtime::OutStream::Stdout ? self->m_stdout : self->m_stderr;
        const size_t room = kExecOutputCap - std::min(kExecOutputCap, buf.size());
        if (chunk.size() > room) {
            self->m_truncated = true;
            // Cut on a character boundary so that the answer has no broken character at the end.
            buf.append(chunk.substr(0, utf8Boundary(chunk, room)));
            buf.resize(std::min(buf.size(), kExecOutputCap));
        } else {
            buf.append(chunk);
        }
        resume(); // past the cap the output is drained and dropped
    };
    h.onExit = [self](int code, bool timedOut) {
        if (self->m_finished)
            return;
        self->m_finished = true;
        nlohmann::json out = {
            {"stdout", self->m_stdout}, {"stderr", self->m_stderr}, {"exitCode", code}};
        if (self->m_truncated)
            out["truncated"] = true;
        if (timedOut)
            out["timedOut"] = true;
        self->m_ex->replyJson(200, out);
        self->m_cancel.reset();
        if (self->m_activity) // after the answer: the log is not on the round trip
            self->m_activity->exited(code, timedOut);
    };
    h.onError = [self](const Error& e) {
        if (self->m_finished)
            return;
        self->m_finished = true;
        self->m_cancel.reset();
        if (const auto spawn = spawnFailure(e)) {
            if (self->m_activity) {
                self->m_activity->output(runtime::OutStream::Stderr, spawn->stderrText);
                self->m_activity->exited(spawn->exitCode, false);
            }
            return self->m_ex->replyJson(200, {{"stdout", self->m_stdout},
                                               {"stderr", spawn->stderrText},
                                               {"exitCode", spawn->exitCode}});
        }
        if (self->m_activity)
            self->m_activity->failed(e.code, e.message);
        if (e.code == "SANDBOX_UNREACHABLE" && self->m_unreachable)
            self->m_unreachable();
        self->m_ex->replyError(apiErrorFromAgent(e));
    };
    m_cancel = m_agent.exec(m_request, std::move(h));
}

} // namespace lizard::api
