#include "http/listener.h"

#include "common/log.h"
#include "http/httpsession.h"

namespace lizard::http {

Listener::Listener(net::io_context& ioc, RequestHandler& handler,
                   std::shared_ptr<SessionRegistry> registry)
    : m_ioc(ioc), m_acceptor(net::make_strand(ioc)), m_handler(handler),
      m_registry(std::move(registry))
{
}

Status Listener::open(unsigned short port)
{
    const tcp::endpoint endpoint{net::ip::make_address_v4("127.0.0.1"), port};
    beast::error_code ec;
    m_acceptor.open(endpoint.protocol(), ec);
    if (!ec)
        m_acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec)
        m_acceptor.bind(endpoint, ec);
    if (!ec)
        m_acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec)
        return Error{500, "LISTEN_FAILED",
                     "cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + ec.message()};
    return okStatus();
}

unsigned short Listener::port() const
{
    beast::error_code ec;
    return m_acceptor.local_endpoint(ec).port();
}

void Listener::run()
{
    doAccept();
}

void Listener::stop()
{
    net::dispatch(m_acceptor.get_executor(), [self = shared_from_this()] {
        beast::error_code ec;
        self->m_acceptor.close(ec);
    });
}

void Listener::doAccept()
{
    m_acceptor.async_accept(net::make_strand(m_ioc), [self = shared_from_this()](
                                                         beast::error_code ec, tcp::socket socket) {
        if (ec == net::error::operation_aborted || !self->m_acceptor.is_open())
            return;
        if (ec) {
            // EMFILE and friends: log, then try again shortly (not in a busy loop).
            log::warn("accept failed: " + ec.message());
            auto timer = std::make_shared<net::steady_timer>(self->m_acceptor.get_executor(),
                                                             std::chrono::milliseconds(100));
            return timer->async_wait([self, timer](beast::error_code) { self->doAccept(); });
        }
        std::make_shared<HttpSession>(std::move(socket), self->m_handler, self->m_registry)->run();
        self->doAccept();
    });
}

} // namespace lizard::http
