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

// The exec whose onOutput runs on this thread right now: its resume() then only marks the
// chunk handled, and the loop in ExecOp::handleFrames goes on with the next frame.
thread_local const void* t_deliveringExec = nullptr;

struct ExecOp : std::enable_shared_from_this<ExecOp>
{
    std::shared_ptr<OpState> state;
    ExecHandlers handlers;
    bool started = false;
    bool resumedInline = false;

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
                                                           char type, std::string_view payload) {
            if (self->state->cancelled || self->state->finished)
                return;
            if (ec)
                return self->fail(self->state->conn->failure("connection lost during exec"));
            if (self->handleFrame(type, payload))
                self->handleFrames();
        });
    }

    // The frames a read brought with the first one, one after the other while each is
    // resumed at once (the common case: the client keeps up); then the next read.
    void handleFrames()
    {
        char type = 0;
        std::string_view payload;
        while (state->conn->nextBufferedFrame(type, payload)) {
            if (!handleFrame(type, payload))
                return;
        }
        readNext();
    }

    // True when the next frame may be handled now; false when the exec ended or waits for
    // its resume().
    bool handleFrame(char type, std::string_view payload)
    {
        if (state->cancelled || state->finished)
            return false;
        if (type == agent::kFrameStdout || type == agent::kFrameStderr) {
            if (!handlers.onOutput)
                return true;
            // Continues reading once: at once when called from within this onOutput (the loop
            // goes on), otherwise through the connection's executor.
            auto once = std::make_shared<std::atomic<bool>>(false);
            auto resume = [self = shared_from_this(), once] {
                if (once->exchange(true))
                    return;
                if (t_deliveringExec == self.get()) {
                    self->resumedInline = true;
                    return;
                }
                asio::post(self->state->conn->executor(), [self] {
                    if (!self->state->cancelled)
                        self->handleFrames();
                });
            };
            const void* outer = t_deliveringExec;
            t_deliveringExec = this;
            resumedInline = false;
            handlers.onOutput(type == agent::kFrameStdout ? OutStream::Stdout : OutStream::Stderr,
                              payload, std::move(resume));
            t_deliveringExec = outer;
            return resumedInline;
        }
        if (type != agent::kFrameJson) {
            fail(agentUnreachable("unexpected frame from the agent"));
            return false;
        }
        auto j = nlohmann::json::parse(payload, nullptr, false);
        if (!j.is_object()) {
            fail(agentUnreachable("malformed reply"));
            return false;
        }
        if (!started) {
            if (!j.value("ok", false)) {
                fail(agentError(j));
                return false;
            }
            started = true;
            if (handlers.onWarmRunner && j.value("runner", "") == "warm")
                handlers.onWarmRunner();
            if (handlers.onStarted)
                handlers.onStarted(j.value("pid", 0));
            return true;
        }
        state->finished = true;
        state->conn->close();
        if (handlers.onExit)
            handlers.onExit(j.value("exitCode", -1), j.value("timedOut", false));
        return false;
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
    if (req.shippedRunner)
        j["runner"] = "shipped";
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
                                                   std::string_view payload) {
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
