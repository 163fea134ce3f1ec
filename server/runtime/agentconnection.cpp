#include "runtime/agentconnection.h"

#include "agent/serve/frame.h"
#include "runtime/agenterrors.h"
#include "runtime/agentlimits.h"
#include "runtime/agentprobe.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <cstring>

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

std::size_t AgentConnection::frontFrameSize(boost::system::error_code& error) const
{
    if (m_end - m_begin < agent::kFrameHeaderSize)
        return 0;
    const auto* header = reinterpret_cast<const unsigned char*>(m_buffer.get() + m_begin);
    const std::uint32_t length = agent::decodeFrameLength(header);
    const std::uint32_t limit = char(header[0]) == agent::kFrameJson ? agent::kMaxJsonAnswerPayload
                                                                     : agent::kMaxFramePayload;
    if (length > limit) {
        error = asio::error::message_size;
        return 0;
    }
    return agent::kFrameHeaderSize + length;
}

bool AgentConnection::nextBufferedFrame(char& type, std::string_view& payload)
{
    boost::system::error_code error;
    const std::size_t size = frontFrameSize(error);
    if (error || size == 0 || m_end - m_begin < size)
        return false;
    const char* frame = m_buffer.get() + m_begin;
    type = frame[0];
    payload = std::string_view(frame + agent::kFrameHeaderSize, size - agent::kFrameHeaderSize);
    m_begin += size;
    return true;
}

void AgentConnection::readFrame(FrameHandler done)
{
    boost::system::error_code error;
    const std::size_t size = frontFrameSize(error);
    if (!error && (size == 0 || m_end - m_begin < size))
        return readMore(std::move(done));
    // Here already (or known to be too big): no read, but the handler still runs afterwards.
    asio::post(m_ex, [self = shared_from_this(), done = std::move(done), error] {
        char type = 0;
        std::string_view payload;
        if (self->m_closed)
            return done(asio::error::operation_aborted, 0, {});
        if (error || !self->nextBufferedFrame(type, payload))
            return done(error ? error : asio::error::operation_aborted, 0, {});
        done({}, type, payload);
    });
}

void AgentConnection::readMore(FrameHandler done)
{
    boost::system::error_code error;
    const std::size_t frame = frontFrameSize(error);
    // Room at the end for at least the rest of this frame, and for a read of m_readSize.
    if (m_begin > 0) {
        std::memmove(m_buffer.get(), m_buffer.get() + m_begin, m_end - m_begin);
        m_end -= m_begin;
        m_begin = 0;
    }
    const std::size_t wanted = std::max(frame, m_end + m_readSize);
    if (m_capacity < wanted) {
        std::unique_ptr<char[]> bigger(new char[wanted]); // not zeroed: only read bytes are used
        std::memcpy(bigger.get(), m_buffer.get(), m_end);
        m_buffer = std::move(bigger);
        m_capacity = wanted;
    }
    m_reading = m_end < agent::kFrameHeaderSize ? Reading::Header : Reading::Payload;
    arm();
    const std::size_t room = m_capacity - m_end;
    m_socket.async_read_some(asio::buffer(m_buffer.get() + m_end, room),
                             [self = shared_from_this(), done = std::move(done),
                              room](const boost::system::error_code& ec, std::size_t n) mutable {
                                 self->m_reading = Reading::No;
                                 self->m_end += n;
                                 // A read that filled all the room had more behind it: the next one
                                 // asks for more.
                                 if (n == room)
                                     self->m_readSize = std::min(self->m_readSize * 2, kReadChunk);
                                 if (ec) {
                                     self->arm();
                                     return done(ec, 0, {});
                                 }
                                 boost::system::error_code tooBig;
                                 const std::size_t size = self->frontFrameSize(tooBig);
                                 char type = 0;
                                 std::string_view payload;
                                 if (tooBig) {
                                     self->arm();
                                     return done(tooBig, 0, {});
                                 }
                                 if (size == 0 || self->m_end - self->m_begin < size)
                                     return self->readMore(
                                         std::move(done)); // progress: that moves the deadline
                                 self->arm();
                                 self->nextBufferedFrame(type, payload);
                                 done({}, type, payload);
                             });
}

void AgentConnection::setReadWait(ReadWait wait, std::chrono::milliseconds strictLimit)
{
    m_readWait = wait;
    m_strictLimit = strictLimit;
    arm();
}

// Moves the deadline of what is pending now; called on every start and completion, so any
// progress pushes it out. The timer itself is only set again when the deadline came closer.
void AgentConnection::arm()
{
    ++m_generation;
    if (m_closed || (!m_connecting && !m_writing && m_reading == Reading::No)) {
        m_deadline = std::chrono::steady_clock::time_point::max(); // the timer finds nothing due
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
    m_deadline = std::chrono::steady_clock::now() + limit;
    if (m_deadline < m_timerAt)
        waitTimer(m_deadline);
}

void AgentConnection::waitTimer(std::chrono::steady_clock::time_point at)
{
    m_timerAt = at;
    m_timer.expires_at(at); // a wait still pending ends with operation_aborted
    const unsigned wait = ++m_timerWait;
    std::weak_ptr<AgentConnection> weak = weak_from_this();
    m_timer.async_wait([weak, wait](const boost::system::error_code& ec) {
        if (auto self = weak.lock(); self && !ec && wait == self->m_timerWait)
            self->onTimer();
    });
}

void AgentConnection::onTimer()
{
    m_timerAt = std::chrono::steady_clock::time_point::max();
    if (m_closed || m_deadline == std::chrono::steady_clock::time_point::max())
        return;
    if (std::chrono::steady_clock::now() < m_deadline)
        return waitTimer(m_deadline); // there was progress since it was set
    onDeadline(m_generation);
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
