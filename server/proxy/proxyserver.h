#pragma once
// The port proxy: an authenticated reverse proxy on loopback, separate from the API port.
// Every exposure gets its own loopback address 127.x.y.z on the proxy port, so browsers
// never share cookies between exposures, and any HTTP client reaches it without DNS.
// 127.0.0.1:<proxy port> is held as an anchor (it keeps the port reserved and answers 404).
// Exposures are stored and reopened on restart; they end with their sandbox (a sweep every
// 2 s drops those of sandboxes that stopped).

#include "common/result.h"
#include "http/beast.h"
#include "proxy/exposure.h"
#include "proxy/proxycontext.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace lizard::store {
class Store;
}

namespace lizard::proxy {

class ProxyListener;

class ProxyServer
{
public:
    ProxyServer(http::net::io_context& ioc, store::Store& store);
    ~ProxyServer();

    // How traffic counts for the lifecycle policies; before open().
    void setUseHooks(SandboxUseHooks hooks) { m_uses = std::move(hooks); }
    // Binds the anchor 127.0.0.1:port (0: any free port).
    Status open(unsigned short port);
    unsigned short port() const;
    // Reopens the stored exposures of live sandboxes, forgets the others, starts the sweep.
    void start();
    void stop();

    // Idempotent: a port exposed again keeps its address; a sandbox keeps one token.
    Result<Exposure> expose(const std::string& sandboxId, int port);
    // NOT_FOUND if the port is not exposed. Open connections to it are closed.
    Status unexpose(const std::string& sandboxId, int port);

    std::string hostname(const Exposure& e) const; // "127.x.y.z:PORT"
    std::string url(const Exposure& e) const;      // "http://127.x.y.z:PORT/?lizard_token=..."

private:
    Status listenOn(const Exposure& e);
    void drop(const Exposure& e);
    void scheduleSweep();
    void sweep();

    http::net::io_context& m_ioc;
    store::Store& m_store;
    std::shared_ptr<ExposureTable> m_table;
    std::shared_ptr<ProxyContext> m_context;
    std::shared_ptr<ProxyListener> m_anchor;
    std::mutex m_mutex; // expose/unexpose/sweep one at a time; guards m_listeners
    std::map<std::string, std::shared_ptr<ProxyListener>> m_listeners; // by address
    std::shared_ptr<http::net::steady_timer> m_sweepTimer;
    bool m_stopped = false;
    SandboxUseHooks m_uses;
};

} // namespace lizard::proxy
