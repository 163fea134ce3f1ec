#include "proxy/proxylistener.h"

#include "common/log.h"
#include "proxy/proxysession.h"

#include <fcntl.h>
#include <sys/socket.h>

namespace lizard::proxy {

ProxyListener::ProxyListener(http::net::io_context& ioc,
                             std::shared_ptr<const ProxyContext> context, std::string address)
    : m_ioc(ioc), m_acceptor(http::net::make_strand(ioc)), m_context(std::move(context)),
      m_address(std::move(address))
{
}

Status ProxyListener::open(unsigned short port)
{
    http::beast::error_code ec;
    const auto ip = http::net::ip::make_address_v4(m_address, ec);
    if (ec || !ip.is_loopback())
        return Error{ErrorKind::Internal, "LISTEN_FAILED",
                     "the proxy listens on loopback addresses only, not " + m_address};
    const http::tcp::endpoint endpoint{ip, port};
    m_acceptor.open(endpoint.protocol(), ec);
    if (!ec) // as the API's listener: no child keeps it
        ::fcntl(m_acceptor.native_handle(), F_SETFD, FD_CLOEXEC);
    if (!ec)
        m_acceptor.set_option(http::net::socket_base::reuse_address(true), ec);
    if (!ec)
        m_acceptor.bind(endpoint, ec);
    if (!ec)
        m_acceptor.listen(http::net::socket_base::max_listen_connections, ec);
    if (ec) {
        http::beast::error_code ignored;
        m_acceptor.close(ignored);
        return Error{ErrorKind::Internal,
                     ec == http::net::error::address_in_use ? "ADDRESS_IN_USE" : "LISTEN_FAILED",
                     "cannot listen on " + m_address + ":" + std::to_string(port) + ": " +
                         ec.message()};
    }
    std::lock_guard lock(m_mutex);
    m_listenFd = m_acceptor.native_handle();
    return okStatus();
}

unsigned short ProxyListener::port() const
{
    http::beast::error_code ec;
    return m_acceptor.local_endpoint(ec).port();
}

void ProxyListener::run()
{
    http::net::dispatch(m_acceptor.get_executor(),
                        [self = shared_from_this()] { self->doAccept(); });
}

void ProxyListener::stop()
{
    {
        // The acceptor itself belongs to its strand, which may be busy for a while under
        // load; shutting the socket down here takes it out of listening at once, so the
        // caller (unexpose) can answer knowing that no new connection gets in. The fd stays
        // open until the strand closes the acceptor below.
        std::lock_guard lock(m_mutex);
        m_stopped = true;
        if (m_listenFd >= 0)
            ::shutdown(m_listenFd, SHUT_RDWR);
        m_listenFd = -1;
    }
    m_context->sessions->closeAddress(m_address);
    http::net::dispatch(m_acceptor.get_executor(), [self = shared_from_this()] {
        http::beast::error_code ignored;
        self->m_acceptor.close(ignored);
    });
}

void ProxyListener::doAccept()
{
    m_acceptor.async_accept(http::net::make_strand(m_ioc), [self = shared_from_this()](
                                                               http::beast::error_code ec,
                                                               http::tcp::socket socket) {
        if (ec == http::net::error::operation_aborted || !self->m_acceptor.is_open())
            return;
        {
            std::lock_guard lock(self->m_mutex);
            if (self->m_stopped)
                return;
        }
        if (ec) {
            log::warn("proxy accept failed: " + ec.message());
            auto timer = std::make_shared<http::net::steady_timer>(self->m_acceptor.get_executor(),
                                                                   std::chrono::milliseconds(100));
            return timer->async_wait([self, timer](http::beast::error_code) { self->doAccept(); });
        }
        auto session =
            std::make_shared<ProxySession>(std::move(socket), self->m_context, self->m_address);
        if (self->m_context->sessions->admit(session, self->m_address))
            session->run();
        else
            session->refuseOverCap();
        self->doAccept();
    });
}

} // namespace lizard::proxy
