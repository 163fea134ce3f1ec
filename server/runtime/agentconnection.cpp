#include "runtime/agentconnection.h"

#include "agent/serve/frame.h"
#include "runtime/agenterrors.h"
#include "runtime/agentlimits.h"
#include "runtime/agentprobe.h"

#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

namespace lizard::runtime {

namespace asio = boost::asio;

AgentConnection::AgentConnection(asio::any_io_executor ex, std::string socketPath)
    : m_ex(ex), m_path(std::move(socketPath)), m_socket(ex), m_timer(ex),
      m_strictLimit(agentDeadlines().reply())
{
}

void AgentConnection::open(CallKind kind, std::function<void(std::optional<Error>)> done)
{
    acquireAgentSlot(
        m_ex, m_path, kind,
        [self = shared_from_this(), kind, done = std::move(done)](std::shared_ptr<AgentSlot> slot) {
            if (!slot)
                return done(sandboxBusy(kind));
            if (self->m_closed)
                return done(agentUnreachable("the call was cancelled"));
            self->m_slot = std::move(slot);
            self->connect([self, done](const boost::system::error_code& ec) {
                if (ec)
                    return done(self->failure(ec.message()));
                done(std::nullopt);
            });
        });
}

void AgentConnection::connect(Handler done)
{
    m_connecting = true;
    arm();
    m_socket.async_connect(
        asio::local::stream_protocol::endpoint(m_path),
        [self = shared_from_this(), done = std::move(done)](const boost::system::error_code& ec) {
            self->m_connecting = false;
            self->arm();
            done(ec);
        });
}

void AgentConnection::writeFrame(char type, std::string payload, Handler done)
{
    auto p = std::make_shared<Pending>();
    agent::encodeFrameHeader(p->header.data(), type, std::uint32_t(payload.size()));
    p->payload = std::move(payload);
    p->done = std::move(done);
    m_queue.push_back(std::move(p));
    if (!m_writing)
        writeNext();
}

void AgentConnection::writeNext()
{
    if (m_queue.empty() || m_closed) {
        m_writing = false;
        arm();
        return;
    }
    m_writing = true;
    arm();
    auto p = m_queue.front();
    std::array<asio::const_buffer, 2> buffers{asio::buffer(p->header), asio::buffer(p->payload)};
    asio::async_write(
        m_socket, buffers,
        [self = shared_from_this(), p](const boost::system::error_code& ec, std::size_t) {
            self->m_queue.erase(self->m_queue.begin());
            if (p->done)
                p->done(ec);
            if (ec) {
                self->m_writing = false;
                self->arm();
                return;
            }
            self->writeNext();
        });
}

void AgentConnection::readFrame(FrameHandler done)
{
    auto self = shared_from_this();
    m_reading = Reading::Header;
    arm();
    asio::async_read(
        m_socket, asio::buffer(m_header),
        [self, done = std::move(done)](const boost::system::error_code& ec, std::size_t) mutable {
            if (ec) {
                self->m_reading = Reading::No;
                self->arm();
                return done(ec, 0, self->m_payload);
            }
            std::uint32_t length = agent::decodeFrameLength(self->m_header.data());
            const std::uint32_t limit = char(self->m_header[0]) == agent::kFrameJson
                                            ? agent::kMaxJsonAnswerPayload
                                            : agent::kMaxFramePayload;
            if (length > limit) {
                self->m_reading = Reading::No;
                self->arm();
                return done(asio::error::message_size, 0, self->m_payload);
            }
            self->m_payload.resize(length);
            self->m_reading = Reading::Payload;
            self->arm();
            asio::async_read(
                self->m_socket, asio::buffer(self->m_payload),
                [self, done = std::move(done)](const boost::system::error_code& ec2, std::size_t) {
                    self->m_reading = Reading::No;
                    self->arm();
                    done(ec2, char(self->m_header[0]), self->m_payload);
                });
        });
}

void AgentConnection::setReadWait(ReadWait wait, std::chrono::milliseconds strictLimit)
{
    m_readWait = wait;
    m_strictLimit = strictLimit;
    arm();
}

// (Re)starts the deadline of what is pending now; called on every start and completion, so
// any progress pushes it out.
void AgentConnection::arm()
{
    const unsigned generation = ++m_generation;
    if (m_closed || (!m_connecting && !m_writing && m_reading == Reading::No)) {
        m_timer.cancel();
        return;
    }
    const AgentDeadlines& d = agentDeadlines();
    std::chrono::milliseconds limit = m_strictLimit;
    if (m_connecting)
        limit = d.connect();
    else if (m_writing)
        limit = d.write();
    else if (m_reading == Reading::Header && m_readWait == ReadWait::Probe)
        limit = d.reply();
    m_timer.expires_after(limit);
    std::weak_ptr<AgentConnection> weak = weak_from_this();
    m_timer.async_wait([weak, generation](const boost::system::error_code& ec) {
        if (auto self = weak.lock(); self && !ec)
            self->onDeadline(generation);
    });
}

void AgentConnection::onDeadline(unsigned generation)
{
    if (generation != m_generation || m_closed)
        return;
    // Frozen on purpose (pause, snapshot copy): it answers once thawed.
    if (agentFrozen(m_path))
        return arm();
    if (m_connecting)
        return expire("no connection within the deadline");
    if (m_writing)
        return expire("it stopped reading the request");
    if (m_reading != Reading::Header || m_readWait != ReadWait::Probe)
        return expire(m_reading == Reading::Payload ? "an answer stopped midway"
                                                    : "no answer within the deadline");
    std::weak_ptr<AgentConnection> weak = weak_from_this();
    probeAgent(m_ex, m_path, [weak, generation](bool alive) {
        auto self = weak.lock();
        if (!self || generation != self->m_generation || self->m_closed)
            return; // a frame came meanwhile, or the call ended
        if (alive)
            return self->arm(); // busy, not stuck: wait another period
        self->expire("no answer, and no answer to a ping either");
    });
}

void AgentConnection::expire(const std::string& what)
{
    m_timedOut = what + " (waited " + std::to_string(agentDeadlines().base.count()) + " ms)";
    close();
}

Error AgentConnection::failure(const std::string& what) const
{
    return m_timedOut.empty() ? agentUnreachable(what) : agentUnresponsive(m_timedOut);
}

void AgentConnection::close()
{
    if (m_closed)
        return;
    m_closed = true;
    ++m_generation;
    m_timer.cancel();
    m_slot.reset();
    boost::system::error_code ignored;
    m_socket.shutdown(asio::socket_base::shutdown_both, ignored);
    m_socket.close(ignored);
}

} // namespace lizard::runtime
