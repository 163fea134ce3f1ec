#include "http/httpserver.h"

#include "http/limits.h"
#include "http/listener.h"
#include "http/sessionregistry.h"

#include <algorithm>
#include <thread>

namespace lizard::http {

SessionThreads::SessionThreads(int count)
{
    for (int i = 0; i < count; ++i) {
        m_contexts.push_back(std::make_unique<net::io_context>(1));
        m_guards.push_back(net::make_work_guard(*m_contexts.back()));
    }
    for (auto& c : m_contexts)
        m_threads.emplace_back([ctx = c.get()] { ctx->run(); });
}

SessionThreads::~SessionThreads()
{
    m_guards.clear();
    for (auto& c : m_contexts)
        c->stop();
    for (auto& t : m_threads)
        t.join();
}

net::any_io_executor SessionThreads::next()
{
    // Only the listener's accept handler asks, one at a time.
    return m_contexts[m_next++ % m_contexts.size()]->get_executor();
}

HttpServer::HttpServer(net::io_context& ioc, RequestHandler& handler, int sessionThreads)
    : m_ioc(ioc), m_registry(std::make_shared<SessionRegistry>()),
      m_threads(std::make_unique<SessionThreads>(std::max(1, sessionThreads))),
      m_listener(std::make_shared<Listener>(
          ioc, handler, m_registry, [threads = m_threads.get()] { return threads->next(); }))
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
