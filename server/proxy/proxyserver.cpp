#include "proxy/proxyserver.h"

#include "common/crypto.h"
#include "common/log.h"
#include "http/limits.h"
#include "proxy/proxylistener.h"
#include "store/store.h"

#include <chrono>
#include <openssl/rand.h>

namespace lizard::proxy {

namespace {

constexpr auto kSweepInterval = std::chrono::seconds(2);
constexpr int kAddressAttempts = 32;

int64_t nowMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// 127.a.b.c with a in 1..254: never 127.0.0.0/24 (127.0.0.1) nor 127.0.1.1 (Debian's
// hostname address), and no .0/.255 last byte.
std::string randomLoopbackAddress()
{
    unsigned char r[3] = {};
    RAND_bytes(r, sizeof r);
    const int a = 1 + r[0] % 254;
    const int c = 1 + r[2] % 254;
    return "127." + std::to_string(a) + "." + std::to_string(r[1]) + "." + std::to_string(c);
}

bool alive(const store::SandboxPtr& s)
{
    return s && (s->status == "running" || s->status == "paused" || s->status == "pausing" ||
                 s->status == "resuming");
}

store::ExposureRecord toRecord(const Exposure& e)
{
    return {e.sandboxId, e.port, e.address, e.token, e.createdAtMs};
}

} // namespace

ProxyServer::ProxyServer(http::net::io_context& ioc, store::Store& store)
    : m_ioc(ioc), m_store(store), m_table(std::make_shared<ExposureTable>())
{
}

ProxyServer::~ProxyServer()
{
    stop();
}

Status ProxyServer::open(unsigned short port)
{
    m_context = std::make_shared<ProxyContext>(ProxyContext{
        m_store, m_table, 0,
        std::make_shared<ProxySessions>(http::connectionLimits().proxyMaxConnections)});
    m_context->uses = m_uses;
    m_anchor = std::make_shared<ProxyListener>(m_ioc, m_context, "127.0.0.1");
    if (Status s = m_anchor->open(port); !s)
        return Error{s.error().kind, s.error().code, "port proxy: " + s.error().message};
    m_context->port = m_anchor->port();
    return okStatus();
}

unsigned short ProxyServer::port() const
{
    return m_context ? m_context->port : 0;
}

void ProxyServer::start()
{
    {
        std::lock_guard lock(m_mutex);
        for (const store::ExposureRecord& r : m_store.exposures()) {
            const Exposure e{r.sandboxId, r.port, r.address, r.token, r.createdAtMs};
            if (!alive(m_store.sandbox(r.sandboxId))) {
                m_store.removeExposure(r.sandboxId, r.port);
                continue;
            }
            if (Status s = listenOn(e); !s) {
                log::warn("port proxy: cannot reopen " + r.sandboxId + ":" +
                          std::to_string(r.port) + ": " + s.error().message);
                m_store.removeExposure(r.sandboxId, r.port);
                continue;
            }
            m_table->add(e);
        }
    }
    m_anchor->run();
    log::info("port proxy on 127.x.y.z:" + std::to_string(port()) + " (" +
              std::to_string(m_table->all().size()) + " exposed ports restored)");
    scheduleSweep();
}

void ProxyServer::stop()
{
    std::map<std::string, std::shared_ptr<ProxyListener>> listeners;
    {
        std::lock_guard lock(m_mutex);
        if (m_stopped)
            return;
        m_stopped = true;
        listeners.swap(m_listeners);
        if (m_sweepTimer)
            http::net::post(m_sweepTimer->get_executor(), [t = m_sweepTimer] { t->cancel(); });
    }
    for (auto& [address, l] : listeners)
        l->stop();
    if (m_anchor)
        m_anchor->stop();
}

Status ProxyServer::listenOn(const Exposure& e)
{
    auto listener = std::make_shared<ProxyListener>(m_ioc, m_context, e.address);
    if (Status s = listener->open(port()); !s)
        return s;
    listener->run();
    m_listeners[e.address] = listener;
    return okStatus();
}

Result<Exposure> ProxyServer::expose(const std::string& sandboxId, int port)
{
    std::lock_guard lock(m_mutex);
    if (m_stopped)
        return Error{ErrorKind::Unavailable, "SHUTTING_DOWN", "lizard-local is stopping"};
    if (auto existing = m_table->find(sandboxId, port))
        return *existing;
    Exposure e;
    e.sandboxId = sandboxId;
    e.port = port;
    e.createdAtMs = nowMs();
    e.token = m_table->tokenOf(sandboxId).value_or(std::string());
    if (e.token.empty())
        e.token = "lzt_" + randomAlnum(40);
    Status bound = Error{ErrorKind::Internal, "LISTEN_FAILED", "no free loopback address"};
    for (int i = 0; i < kAddressAttempts; ++i) {
        e.address = randomLoopbackAddress();
        if (m_table->addressTaken(e.address))
            continue;
        bound = listenOn(e);
        if (bound || bound.error().code != "ADDRESS_IN_USE")
            break;
    }
    if (!bound)
        return bound.error();
    if (Status s = m_store.insertExposure(toRecord(e)); !s) {
        m_listeners[e.address]->stop();
        m_listeners.erase(e.address);
        return s.error();
    }
    m_table->add(e);
    log::info("port proxy: " + sandboxId + ":" + std::to_string(port) + " exposed at " +
              hostname(e));
    return e;
}

Status ProxyServer::unexpose(const std::string& sandboxId, int port)
{
    std::lock_guard lock(m_mutex);
    auto e = m_table->find(sandboxId, port);
    if (!e)
        return Error{ErrorKind::NotFound, "NOT_FOUND",
                     "port " + std::to_string(port) + " of sandbox " + sandboxId +
                         " is not exposed"};
    if (Status s = m_store.removeExposure(sandboxId, port); !s)
        return s;
    drop(*e);
    return okStatus();
}

// Caller holds m_mutex.
void ProxyServer::drop(const Exposure& e)
{
    m_table->remove(e.sandboxId, e.port);
    if (auto it = m_listeners.find(e.address); it != m_listeners.end()) {
        it->second->stop();
        m_listeners.erase(it);
    }
    log::info("port proxy: " + e.sandboxId + ":" + std::to_string(e.port) + " no longer exposed");
}

void ProxyServer::scheduleSweep()
{
    std::lock_guard lock(m_mutex);
    if (m_stopped)
        return;
    if (!m_sweepTimer)
        m_sweepTimer = std::make_shared<http::net::steady_timer>(http::net::make_strand(m_ioc));
    m_sweepTimer->expires_after(kSweepInterval);
    m_sweepTimer->async_wait([this, t = m_sweepTimer](http::beast::error_code ec) {
        if (ec)
            return;
        sweep();
        scheduleSweep();
    });
}

void ProxyServer::sweep()
{
    std::lock_guard lock(m_mutex);
    if (m_stopped)
        return;
    for (const Exposure& e : m_table->all()) {
        if (alive(m_store.sandbox(e.sandboxId)))
            continue;
        m_store.removeExposure(e.sandboxId, e.port);
        drop(e);
    }
}

std::string ProxyServer::hostname(const Exposure& e) const
{
    return e.address + ":" + std::to_string(port());
}

std::string ProxyServer::url(const Exposure& e) const
{
    return "http://" + hostname(e) + "/?lizard_token=" + e.token;
}

} // namespace lizard::proxy
