#include "runtime/agent_connection.h"

#include "agent/frame.h"

#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

namespace lizard::runtime {

namespace asio = boost::asio;

AgentConnection::AgentConnection(asio::any_io_executor ex, std::string socketPath)
    : m_ex(ex), m_path(std::move(socketPath)), m_socket(ex)
{
}

void AgentConnection::connect(Handler done)
{
    m_socket.async_connect(asio::local::stream_protocol::endpoint(m_path),
                           [self = shared_from_this(), done = std::move(done)](const boost::system::error_code& ec) {
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
        return;
    }
    m_writing = true;
    auto p = m_queue.front();
    std::array<asio::const_buffer, 2> buffers{asio::buffer(p->header), asio::buffer(p->payload)};
    asio::async_write(m_socket, buffers, [self = shared_from_this(), p](const boost::system::error_code& ec, std::size_t) {
        self->m_queue.erase(self->m_queue.begin());
        if (p->done)
            p->done(ec);
        if (ec) {
            self->m_writing = false;
            return;
        }
        self->writeNext();
    });
}

void AgentConnection::readFrame(FrameHandler done)
{
    auto self = shared_from_this();
    asio::async_read(m_socket, asio::buffer(m_header),
                     [self, done = std::move(done)](const boost::system::error_code& ec, std::size_t) mutable {
                         if (ec)
                             return done(ec, 0, self->m_payload);
                         std::uint32_t length = agent::decodeFrameLength(self->m_header.data());
                         const std::uint32_t limit = char(self->m_header[0]) == agent::kFrameJson
                                                         ? agent::kMaxJsonAnswerPayload
                                                         : agent::kMaxFramePayload;
                         if (length > limit)
                             return done(asio::error::message_size, 0, self->m_payload);
                         self->m_payload.resize(length);
                         asio::async_read(self->m_socket, asio::buffer(self->m_payload),
                                          [self, done = std::move(done)](const boost::system::error_code& ec2, std::size_t) {
                                              done(ec2, char(self->m_header[0]), self->m_payload);
                                          });
                     });
}

void AgentConnection::close()
{
    if (m_closed)
        return;
    m_closed = true;
    boost::system::error_code ignored;
    m_socket.shutdown(asio::socket_base::shutdown_both, ignored);
    m_socket.close(ignored);
}

} // namespace lizard::runtime
