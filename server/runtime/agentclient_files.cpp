// AgentClient::readFile and writeFile: file bytes as D frames ended by Z.
#include "agent/serve/frame.h"
#include "runtime/agentclient.h"
#include "runtime/agentconnection.h"
#include "runtime/agenterrors.h"
#include "runtime/agentlimits.h"

#include <atomic>
#include <boost/asio/post.hpp>

namespace lizard::runtime {

namespace asio = boost::asio;

namespace {

struct ReadOp : std::enable_shared_from_this<ReadOp>, Cancel
{
    std::shared_ptr<AgentConnection> conn;
    std::function<void(uint64_t)> onSize;
    std::function<void(std::string_view, std::function<void()>)> onData;
    std::function<void(Status)> done;
    std::atomic<bool> cancelled{false};
    bool finished = false;
    bool sized = false;

    void cancel() override
    {
        if (cancelled.exchange(true))
            return;
        asio::post(conn->executor(), [self = shared_from_this()] { self->conn->close(); });
    }

    void finish(Status s)
    {
        if (finished || cancelled)
            return;
        finished = true;
        conn->close();
        done(std::move(s));
    }

    void readNext()
    {
        conn->readFrame([self = shared_from_this()](const boost::system::error_code& ec, char type,
                                                    std::string_view payload) {
            if (self->cancelled || self->finished)
                return;
            if (ec)
                return self->finish(self->conn->failure("connection lost while reading a file"));
            if (type == agent::kFrameJson && !self->sized) {
                auto j = nlohmann::json::parse(payload, nullptr, false);
                if (!j.is_object() || !j.value("ok", false))
                    return self->finish(j.is_object() ? agentError(j)
                                                      : agentUnreachable("malformed reply"));
                self->sized = true;
                // From here on the bytes must keep coming: no ping excuses a stalled transfer.
                self->conn->setReadWait(AgentConnection::ReadWait::Strict,
                                        agentDeadlines().progress());
                if (self->onSize)
                    self->onSize(j.value("size", uint64_t(0)));
                return self->readNext();
            }
            if (type == agent::kFrameData && self->sized) {
                auto once = std::make_shared<std::atomic<bool>>(false);
                auto resume = [self, once] {
                    if (!once->exchange(true))
                        asio::post(self->conn->executor(), [self] {
                            if (!self->cancelled)
                                self->readNext();
                        });
                };
                return self->onData(payload, resume);
            }
            if (type == agent::kFrameDataEnd && self->sized)
                return self->finish(okStatus());
            self->finish(agentUnreachable("unexpected frame from the agent"));
        });
    }
};

} // namespace

std::shared_ptr<Cancel>
AgentClient::readFile(std::string path, std::string user, std::function<void(uint64_t)> onSize,
                      std::function<void(std::string_view, std::function<void()>)> onData,
                      std::function<void(Status)> done)
{
    auto op = std::make_shared<ReadOp>();
    op->conn = std::make_shared<AgentConnection>(m_ex, m_socketPath);
    op->onSize = std::move(onSize);
    op->onData = std::move(onData);
    op->done = std::move(done);
    nlohmann::json j{{"op", "read"}, {"path", path}, {"user", user.empty() ? "root" : user}};
    op->conn->setReadWait(AgentConnection::ReadWait::Probe, agentDeadlines().reply());
    op->conn->open(CallKind::Other, [op, text = j.dump()](std::optional<Error> error) {
        if (op->cancelled)
            return;
        if (error)
            return op->finish(*error);
        op->conn->writeFrame(agent::kFrameJson, text);
        op->readNext();
    });
    return op;
}

void AgentClient::writeFile(std::string path, std::string user, std::string content,
                            std::function<void(Status)> done)
{
    auto conn = std::make_shared<AgentConnection>(m_ex, m_socketPath);
    auto data = std::make_shared<std::string>(std::move(content));
    nlohmann::json j{{"op", "write"}, {"path", path}, {"user", user.empty() ? "root" : user}};
    // Each data frame must be taken within the write deadline; the final answer (after the
    // agent renamed the file into place) may take longer while pings are answered.
    conn->setReadWait(AgentConnection::ReadWait::Probe, agentDeadlines().reply());
    conn->open(CallKind::Other, [conn, data, text = j.dump(),
                                 done = std::move(done)](std::optional<Error> error) mutable {
        if (error)
            return done(*error);
        conn->writeFrame(agent::kFrameJson, std::move(text));
        for (std::size_t off = 0; off < data->size(); off += agent::kMaxFramePayload)
            conn->writeFrame(agent::kFrameData, data->substr(off, agent::kMaxFramePayload));
        data->clear();
        conn->writeFrame(agent::kFrameDataEnd, {});
        readReply(conn, [done = std::move(done)](Result<nlohmann::json> reply) {
            done(reply ? okStatus() : Status(reply.error()));
        });
    });
}

} // namespace lizard::runtime
