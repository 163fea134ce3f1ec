#pragma once
// Accepts connections on one loopback address of the proxy port (one exposure, or the
// 127.0.0.1 anchor that keeps the port reserved). Its connections are registered in the
// context's ProxySessions (the cap), so that closing it (unexpose) also ends them.

#include "common/result.h"
#include "http/beast.h"
#include "proxy/proxycontext.h"

#include <memory>
#include <mutex>
#include <string>

namespace lizard::proxy {

class ProxyListener : public std::enable_shared_from_this<ProxyListener>
{
public:
    ProxyListener(http::net::io_context& ioc, std::shared_ptr<const ProxyContext> context,
                  std::string address);

    // Binds address:port (port 0: any free port). The address must be in 127.0.0.0/8.
    Status open(unsigned short port);
    unsigned short port() const;
    const std::string& address() const { return m_address; }
    void run();
    // Stops listening before it returns (a connect right after gets "refused"), then ends
    // the address's connections.
    void stop();

private:
    void doAccept();

    http::net::io_context& m_ioc;
    http::tcp::acceptor m_acceptor;
    std::shared_ptr<const ProxyContext> m_context;
    const std::string m_address;
    std::mutex m_mutex;
    bool m_stopped = false;
    int m_listenFd = -1; // the acceptor's socket while it listens; guarded by m_mutex
};

} // namespace lizard::proxy
