// After a 101 answer (WebSocket and other upgrades) the connection is a two-way byte pipe.
#include "proxy/proxysession.h"

namespace lizard::proxy {

namespace beast = http::beast;

namespace {

constexpr std::size_t kPipeBuffer = 16 * 1024;

} // namespace

void ProxySession::startTunnel()
{
    m_client.expires_never();
    m_upstream->expires_never();
    m_pipesOpen = 2;
    // An open pipe is not a use by itself (a WebSocket may idle for days); its bytes are.
    m_busy.reset();
    // Bytes already read past the handshake belong to the other side.
    auto leftoverUp =
        std::make_shared<std::string>(beast::buffers_to_string(m_clientBuffer.data()));
    auto leftoverDown =
        std::make_shared<std::string>(beast::buffers_to_string(m_upstreamBuffer.data()));
    m_clientBuffer.clear();
    m_upstreamBuffer.clear();
    m_pipeBuffers[0].resize(kPipeBuffer);
    m_pipeBuffers[1].resize(kPipeBuffer);
    auto self = shared_from_this();
    http::net::async_write(*m_upstream, http::net::buffer(*leftoverUp),
                           [self, leftoverUp](beast::error_code ec, std::size_t) {
                               if (ec)
                                   return self->close();
                               self->pipe(true);
                           });
    http::net::async_write(m_client, http::net::buffer(*leftoverDown),
                           [self, leftoverDown](beast::error_code ec, std::size_t) {
                               if (ec)
                                   return self->close();
                               self->pipe(false);
                           });
}

// One direction: read some, write it all, repeat. EOF half-closes the other side.
void ProxySession::pipe(bool toUpstream)
{
    if (m_closed)
        return;
    beast::tcp_stream& from = toUpstream ? m_client : *m_upstream;
    std::vector<char>& buffer = m_pipeBuffers[toUpstream ? 0 : 1];
    from.async_read_some(http::net::buffer(buffer), [self = shared_from_this(), toUpstream](
                                                        beast::error_code ec, std::size_t n) {
        if (self->m_closed)
            return;
        beast::tcp_stream& to = toUpstream ? *self->m_upstream : self->m_client;
        if (ec) {
            beast::error_code ignored;
            to.socket().shutdown(http::tcp::socket::shutdown_send, ignored);
            if (ec != http::net::error::eof || --self->m_pipesOpen == 0)
                self->close();
            return;
        }
        self->used(); // wakes the sandbox if the bytes came while a policy paused it
        std::vector<char>& buf = self->m_pipeBuffers[toUpstream ? 0 : 1];
        http::net::async_write(to, http::net::buffer(buf.data(), n),
                               [self, toUpstream](beast::error_code ec2, std::size_t) {
                                   if (ec2)
                                       return self->close();
                                   self->pipe(toUpstream);
                               });
    });
}

} // namespace lizard::proxy
