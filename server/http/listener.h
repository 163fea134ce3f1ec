#pragma once
// Accepts connections on 127.0.0.1 and starts an HttpSession for each.

#include "common/result.h"
#include "http/beast.h"

#include <functional>
#include <memory>

namespace lizard::http {

class RequestHandler;
class SessionRegistry;

class Listener : public std::enable_shared_from_this<Listener>
{
public:
    // `sessionExecutor` picks the executor each accepted connection lives on.
    Listener(net::io_context& ioc, RequestHandler& handler,
             std::shared_ptr<SessionRegistry> registry,
             std::function<net::any_io_executor()> sessionExecutor);

    // Binds 127.0.0.1:port (0 = any free port). Never binds another address.
    Status open(unsigned short port);
    unsigned short port() const;
    void run();
    void stop();

private:
    void doAccept();

    net::io_context& m_ioc;
    tcp::acceptor m_acceptor;
    RequestHandler& m_handler;
    std::shared_ptr<SessionRegistry> m_registry;
    std::function<net::any_io_executor()> m_sessionExecutor;
};

} // namespace lizard::http
