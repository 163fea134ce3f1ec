#include "http/listener.h"

#include "common/log.h"
#include "http/httpsession.h"
#include "http/limits.h"
#include "http/responses.h"
#include "http/sessionregistry.h"

#include <atomic>
#include <fcntl.h>
#include <sstream>

namespace lizard::http {

namespace {

std::string refusal()
{
    StringResponse res =
        errorResponse(bhttp::status::service_unavailable, "TOO_MANY_CONNECTIONS",
                      "lizard-local has " + std::to_string(connectionLimits().maxConnections) +
                          " connections open, its limit; try again shortly");
    res.set(bhttp::field::retry_after, "1");
    res.keep_alive(false);
    std::ostringstream out;
    out << res;
    return out.str();
}

// Over the cap, every connection with the key: one short answer that fits the empty send buffer of
// a new socket, written without waiting, then the socket is closed. Nothing is read and nothing
// stays open, so a flood costs a file descriptor for a moment per connection, never memory.
void refuse(tcp::socket& socket)
{
    static const std::string answer = refusal();
    beast::error_code ec;
    socket.non_blocking(true, ec);
    socket.write_some(net::buffer(answer), ec);
    socket.shutdown(tcp::socket::shutdown_send, ec);
    socket.close(ec);
    // Once per quiet period, not once per refused connection.
    static std::atomic<int64_t> lastLog{0};
    const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count();
    if (now - lastLog.exchange(now) >= 10)
        log::warn("API connection limit reached (" +
                  std::to_string(connectionLimits().maxConnections) +
                  " open, all with the key): refusing new connections with 503");
}

} // namespace

Listener::Listener(net::io_context& ioc, RequestHandler& handler,
                   std::shared_ptr<SessionRegistry> registry,
                   std::function<net::any_io_executor()> sessionExecutor)
    : m_ioc(ioc), m_acceptor(net::make_strand(ioc)), m_handler(handler),
      m_registry(std::move(registry)), m_sessionExecutor(std::move(sessionExecutor))
{
}

Status Listener::open(unsigned short port)
{
    const tcp::endpoint endpoint{net::ip::make_address_v4("127.0.0.1"), port};
    beast::error_code ec;
    m_acceptor.open(endpoint.protocol(), ec);
    if (!ec) // no child's to keep (Asio leaves it inheritable), whatever forks and execs
        ::fcntl(m_acceptor.native_handle(), F_SETFD, FD_CLOEXEC);
    if (!ec)
        m_acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec)
        m_acceptor.bind(endpoint, ec);
    if (!ec)
        m_acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec)
        return Error{ErrorKind::Internal, "LISTEN_FAILED",
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
    m_acceptor.async_accept(
        net::make_strand(m_sessionExecutor()),
        [self = shared_from_this()](beast::error_code ec, tcp::socket socket) {
            if (ec == net::error::operation_aborted || !self->m_acceptor.is_open())
                return;
            if (ec) {
                // EMFILE and friends: log, then try again shortly (not in a busy loop).
                log::warn("accept failed: " + ec.message());
                auto timer = std::make_shared<net::steady_timer>(self->m_acceptor.get_executor(),
                                                                 std::chrono::milliseconds(100));
                return timer->async_wait([self, timer](beast::error_code) { self->doAccept(); });
            }
            // The cap counts this server's API connections only (the port proxy has its own
            // listeners, whose connections never reach this registry). Over it, the oldest
            // connection that has not shown the key makes room, so that a flood of keyless
            // connections cannot lock the key holder out; if all have shown it, 503.
            if (self->m_registry->count() >= connectionLimits().maxConnections &&
                !self->m_registry->evictOldestUnproven())
                refuse(socket);
            else
                std::make_shared<HttpSession>(std::move(socket), self->m_handler, self->m_registry)
                    ->run();
            self->doAccept();
        });
}

} // namespace lizard::http
