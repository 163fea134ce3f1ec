#include "runtime/agentclient.h"

#include "agent/serve/frame.h"
#include "runtime/agentconnection.h"
#include "runtime/agenterrors.h"
#include "runtime/agentlimits.h"

#include <atomic>
#include <boost/asio/post.hpp>

namespace lizard::runtime {

namespace asio = boost::asio;

namespace {

// Shared by the callbacks of one operation: cancellation and "already finished".
struct OpState
{
    std::shared_ptr<AgentConnection> conn;
    std::atomic<bool> cancelled{false};
    bool finished = false;
};

class OpCancel final : public Cancel
{
public:
    explicit OpCancel(std::shared_ptr<OpState> state) : m_state(std::move(state)) {}
    void cancel() override
    {
        if (m_state->cancelled.exchange(true))
            return;
        asio::post(m_state->conn->executor(), [state = m_state] { state->conn->close(); });
    }

private:
    std::shared_ptr<OpState> m_state;
};

// A resume() for streamed chunks: continues reading once, on the connection's executor.
std::function<void()> makeResume(std::shared_ptr<OpState> state, std::function<void()> next)
{
    auto once = std::make_shared<std::atomic<bool>>(false);
    return [state, next = std::move(next), once] {
        if (once->exchange(true))
            return;
        asio::post(state->conn->executor(), [state, next] {
            if (!state->cancelled)
                next();
        });
    };
}

struct ExecOp : std::enable_shared_from_this<ExecOp>
{
    std::shared_ptr<OpState> state;
    ExecHandlers handlers;
    bool started = false;

    void fail(const Error& e)
    {
        if (state->finished || state->cancelled)
            return;
        state->finished = true;
        state->conn->close();
        if (handlers.onError)
            handlers.onError(e);
    }

    void readNext()
    {
        state->conn->readFrame([self = shared_from_this()](const boost::system::error_code& ec,
                                                           char type, const std::string& payload) {
            if (self->state->cancelled || self->state->finished)
                return;
            if (ec)
                return self->fail(self->state->conn->failure("connection lost during exec"));
            if (type == agent::kFrameStdout || type == agent::kFrameStderr) {
                auto resume = makeResume(self->state, [self] { self->readNext(); });
                if (self->handlers.onOutput)
                    self->handlers.onOutput(type == agent::kFrameStdout ? OutStream::Stdout
                                                                        : OutStream::Stderr,
                                            std::string_view(payload), resume);
                else
                    resume();
                return;
            }
            if (type != agent::kFrameJson)
                return self->fail(agentUnreachable("unexpected frame from the agent"));
            auto j = nlohmann::json::parse(payload, nullptr, false);
            if (!j.is_object())
                return self->fail(agentUnreachable("malformed reply"));
            if (!self->started) {
                if (!j.value("ok", false))
                    return self->fail(agentError(j));
                self->started = true;
                if (self->handlers.onWarmRunner && j.value("runner", "") == "warm")
                    self->handlers.onWarmRunner();
                if (self->handlers.onStarted)
                    self->handlers.onStarted(j.value("pid", 0));
                return self->readNext();
            }
            self->state->finished = true;
            self->state->conn->close();
            if (self->handlers.onExit)
                self->handlers.onExit(j.value("exitCode", -1), j.value("timedOut", false));
        });
    }
};

} // namespace

AgentClient::AgentClient(asio::any_io_executor ex, std::string socketPath)
    : m_ex(ex), m_socketPath(std::move(socketPath))
{
}

std::shared_ptr<Cancel> AgentClient::exec(ExecRequest req, ExecHandlers handlers)
{
    auto op = std::make_shared<ExecOp>();
    op->state = std::make_shared<OpState>();
    op->state->conn = std::make_shared<AgentConnection>(m_ex, m_socketPath);
    op->handlers = std::move(handlers);
    nlohmann::json j{{"op", "exec"},   {"argv", req.argv}, {"env", req.env},
                     {"cwd", req.cwd}, {"user", req.user}, {"timeoutMs", req.timeoutMs}};
    if (req.helper)
        j["oomScore"] = "agent";
    // A command may be silent for as long as its timeout: silence is probed, not failed.
    op->state->conn->setReadWait(AgentConnection::ReadWait::Probe, agentDeadlines().reply());
    op->state->conn->open(CallKind::Exec, [op, text = j.dump()](std::optional<Error> error) {
        if (op->state->cancelled)
            return;
        if (error)
            return op->fail(*error);
        op->state->conn->writeFrame(agent::kFrameJson, text);
        op->readNext();
    });
    return std::make_shared<OpCancel>(op->state);
}

void AgentClient::request(nlohmann::json req, std::function<void(Result<nlohmann::json>)> done)
{
    auto conn = std::make_shared<AgentConnection>(m_ex, m_socketPath);
    // A remove of a big tree or a listing of a huge folder takes long while the agent is fine.
    conn->setReadWait(AgentConnection::ReadWait::Probe, agentDeadlines().reply());
    conn->open(CallKind::Other, [conn, text = req.dump(),
                                 done = std::move(done)](std::optional<Error> error) mutable {
        if (error)
            return done(*error);
        conn->writeFrame(agent::kFrameJson, std::move(text));
        readReply(conn, std::move(done));
    });
}

void AgentClient::readReply(const std::shared_ptr<AgentConnection>& conn,
                            std::function<void(Result<nlohmann::json>)> done)
{
    conn->readFrame([conn, done = std::move(done)](const boost::system::error_code& ec, char type,
                                                   const std::string& payload) {
        const Error lost = conn->failure(ec ? ec.message() : "unexpected frame");
        conn->close();
        if (ec || type != agent::kFrameJson)
            return done(lost);
        auto j = nlohmann::json::parse(payload, nullptr, false);
        if (!j.is_object())
            return done(agentUnreachable("malformed reply"));
        if (!j.value("ok", false))
            return done(agentError(j));
        done(std::move(j));
    });
}

} // namespace lizard::runtime
