#include "http/httpserver.h"

#include "http/limits.h"
#include "http/listener.h"
#include "http/sessionregistry.h"

#include <thread>

namespace lizard::http {

HttpServer::HttpServer(net::io_context& ioc, RequestHandler& handler)
    : m_ioc(ioc), m_registry(std::make_shared<SessionRegistry>()),
      m_listener(std::make_shared<Listener>(ioc, handler, m_registry))
{
}

HttpServer::~HttpServer() = default;

Status HttpServer::listen(unsigned short port)
{
    connectionLimits(); // read (and logged, if adjusted) now rather than at the first client
    return m_listener->open(port);
}
unsigned short HttpServer::port() const
{
    return m_listener->port();
}
void HttpServer::start()
{
    m_listener->run();
}

void HttpServer::stop(std::chrono::milliseconds grace)
{
    m_listener->stop();
    m_registry->stopAll();
    const auto deadline = std::chrono::steady_clock::now() + grace;
    while (m_registry->count() > 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

} // namespace lizard::http
