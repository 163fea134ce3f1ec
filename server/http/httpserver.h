#pragma once
// The HTTP front: a Listener on 127.0.0.1, the live sessions, and a graceful stop.

#include "common/result.h"
#include "http/beast.h"

#include <chrono>
#include <memory>

namespace lizard::http {

class Listener;
class RequestHandler;
class SessionRegistry;

class HttpServer
{
public:
    HttpServer(net::io_context& ioc, RequestHandler& handler);
    ~HttpServer();

    Status listen(unsigned short port);
    unsigned short port() const;
    void start();
    // Stops accepting, lets running exchanges finish for up to `grace`, then closes the rest.
    void stop(std::chrono::milliseconds grace);

private:
    net::io_context& m_ioc;
    std::shared_ptr<SessionRegistry> m_registry;
    std::shared_ptr<Listener> m_listener;
};

} // namespace lizard::http
