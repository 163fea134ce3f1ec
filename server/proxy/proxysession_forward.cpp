// The relay of one request to the sandbox and of its response back, a body step at a time.
#include "common/log.h"
#include "proxy/proxypages.h"
#include "proxy/proxysession.h"
#include "runtime/agentclient.h"

#include <sys/socket.h>
#include <unistd.h>

namespace lizard::proxy {

using http::bhttp::field;
using http::bhttp::status;
namespace bhttp = http::bhttp;
namespace beast = http::beast;

namespace {

constexpr std::size_t kChunkSize = 64 * 1024;
constexpr auto kWriteTimeout = std::chrono::seconds(120);
constexpr std::uint32_t kResponseHeaderLimit = 64 * 1024;

} // namespace

void ProxySession::forward()
{
    if (m_chunk.empty()) {
        m_chunk.resize(kChunkSize);
        // Beast reads at most what the buffer has room for (and 64 KiB): without room set
        // aside, a body arrived in pieces of a few KiB, one event-loop round trip each.
        m_clientBuffer.reserve(kChunkSize);
        m_upstreamBuffer.reserve(kChunkSize);
    }
    auto& req = m_request->get();
    if (http::beast::iequals(req[field::expect], "100-continue")) {
        // Answer the client's wait ourselves; the body is relayed as it comes.
        req.erase(field::expect);
        auto cont =
            std::make_shared<bhttp::response<bhttp::empty_body>>(status::continue_, req.version());
        m_client.expires_after(kWriteTimeout);
        return bhttp::async_write(
            m_client, *cont, [self = shared_from_this(), cont](beast::error_code ec, std::size_t) {
                if (ec)
                    return self->close();
                self->m_upstreamReused = self->m_upstream.has_value();
                self->m_upstream ? self->relayRequestBody() : self->dial();
            });
    }
    m_upstreamReused = m_upstream.has_value();
    m_upstream ? relayRequestBody() : dial();
}

void ProxySession::dial()
{
    runtime::AgentClient agent(m_client.get_executor(), m_socketPath);
    agent.connectPort(m_exposure.port, [self = shared_from_this()](Result<int> fd) {
        if (!fd) {
            const Error& e = fd.error();
            if (e.code == "CONNECTION_REFUSED")
                return self->answer(
                    status::bad_gateway,
                    "Nothing listens on port " + std::to_string(self->m_exposure.port),
                    "No program in sandbox " + self->m_exposure.sandboxId + " listens on port " +
                        std::to_string(self->m_exposure.port) +
                        " (yet). Start the server, then reload.");
            return self->answer(status::bad_gateway, "Sandbox not reachable", e.message);
        }
        self->onDialed(*fd);
    });
}

void ProxySession::onDialed(int fd)
{
    if (m_closed) {
        ::close(fd);
        return;
    }
    sockaddr_storage local{};
    socklen_t len = sizeof local;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len);
    http::tcp::socket socket(m_client.get_executor());
    beast::error_code ec;
    socket.assign(local.ss_family == AF_INET6 ? http::tcp::v6() : http::tcp::v4(), fd, ec);
    if (ec) {
        ::close(fd);
        return answer(status::bad_gateway, "Sandbox not reachable", ec.message());
    }
    m_upstream.emplace(std::move(socket));
    m_upstreamBuffer.clear();
    m_upstreamReused = false;
    relayRequestBody();
}

void ProxySession::relayRequestBody()
{
    auto& body = m_request->get().body();
    if (!m_requestWriter) {
        // The header goes first, on its own (data null + more: the writer stops after it).
        m_requestWriter.emplace(m_request->get());
        body.data = nullptr;
        body.size = 0;
        body.more = !m_request->is_done();
        return writeRequest();
    }
    if (m_request->is_done()) {
        body.data = nullptr;
        body.size = 0;
        body.more = false;
        return writeRequest();
    }
    body.data = m_chunk.data();
    body.size = m_chunk.size();
    m_client.expires_after(kWriteTimeout);
    bhttp::async_read_some(
        m_client, m_clientBuffer, *m_request,
        [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec == bhttp::error::need_buffer)
                ec = {};
            if (ec)
                return self->close();
            self->used();
            auto& b = self->m_request->get().body();
            b.size = self->m_chunk.size() - b.size;
            b.data = b.size != 0 ? self->m_chunk.data() : nullptr;
            b.more = !self->m_request->is_done();
            if (b.size == 0 && b.more)
                return self->relayRequestBody(); // only framing was read (a chunk header)
            self->writeRequest();
        });
}

void ProxySession::writeRequest()
{
    m_upstream->expires_after(kWriteTimeout);
    bhttp::async_write(*m_upstream, *m_requestWriter,
                       [self = shared_from_this()](beast::error_code ec, std::size_t) {
                           if (ec == bhttp::error::need_buffer)
                               ec = {};
                           if (ec)
                               return self->upstreamFailed("sending the request: " + ec.message());
                           if (self->m_requestWriter->is_done())
                               return self->readResponseHeader();
                           self->relayRequestBody();
                       });
}

void ProxySession::readResponseHeader()
{
    m_response.emplace();
    m_response->header_limit(kResponseHeaderLimit);
    m_response->body_limit(boost::none);
    if (m_request->get().method() == bhttp::verb::head)
        m_response->skip(true);
    m_upstream->expires_never(); // a slow answer (long poll, build) is fine
    bhttp::async_read_header(*m_upstream, m_upstreamBuffer, *m_response,
                             [self = shared_from_this()](beast::error_code ec, std::size_t) {
                                 if (ec)
                                     return self->upstreamFailed("reading the answer: " +
                                                                 ec.message());
                                 const unsigned code = self->m_response->get().result_int();
                                 if (code / 100 == 1 && code != 101)
                                     return self->readResponseHeader(); // 1xx hints: dropped
                                 // The header goes out at once (an event stream's client is
                                 // waiting).
                                 self->m_responseWriter.emplace(self->m_response->get());
                                 auto& body = self->m_response->get().body();
                                 body.data = nullptr;
                                 body.size = 0;
                                 body.more = !self->m_response->is_done();
                                 self->writeResponse();
                             });
}

void ProxySession::relayResponseBody()
{
    auto& body = m_response->get().body();
    if (m_response->is_done()) {
        body.data = nullptr;
        body.size = 0;
        body.more = false;
        return writeResponse();
    }
    body.data = m_chunk.data();
    body.size = m_chunk.size();
    // read_some, not read: an event stream's small pieces go out as they come.
    bhttp::async_read_some(*m_upstream, m_upstreamBuffer, *m_response,
                           [self = shared_from_this()](beast::error_code ec, std::size_t) {
                               if (ec == bhttp::error::need_buffer)
                                   ec = {};
                               if (ec)
                                   return self->upstreamFailed("reading the answer: " +
                                                               ec.message());
                               self->used();
                               auto& b = self->m_response->get().body();
                               b.size = self->m_chunk.size() - b.size;
                               b.data = b.size != 0 ? self->m_chunk.data() : nullptr;
                               b.more = !self->m_response->is_done();
                               if (b.size == 0 && b.more)
                                   return self->relayResponseBody(); // only framing was read
                               self->writeResponse();
                           });
}

void ProxySession::writeResponse()
{
    m_responseStarted = true;
    m_client.expires_after(kWriteTimeout);
    bhttp::async_write(m_client, *m_responseWriter,
                       [self = shared_from_this()](beast::error_code ec, std::size_t) {
                           if (ec == bhttp::error::need_buffer)
                               ec = {};
                           if (ec)
                               return self->close();
                           if (self->m_responseWriter->is_done())
                               return self->finishExchange();
                           self->relayResponseBody();
                       });
}

void ProxySession::finishExchange()
{
    if (m_response->get().result() == status::switching_protocols)
        return startTunnel();
    const bool upstreamKeep = m_response->keep_alive();
    if (!upstreamKeep) {
        beast::error_code ignored;
        m_upstream->socket().shutdown(http::tcp::socket::shutdown_both, ignored);
        m_upstream.reset();
    }
    if (!upstreamKeep || !m_request->keep_alive())
        return linger();
    readRequest();
}

void ProxySession::upstreamFailed(const std::string& what)
{
    log::warn("proxy " + m_address + " → sandbox " + m_exposure.sandboxId + ":" +
              std::to_string(m_exposure.port) + ": " + what);
    if (m_upstream) {
        beast::error_code ignored;
        m_upstream->socket().close(ignored);
        m_upstream.reset();
    }
    if (m_responseStarted || m_closed)
        return close(); // the client sees a cut answer, never a made-up end
    if (m_upstreamReused && !m_retried && m_request->is_done()) {
        // The sandbox's server closed the idle kept-alive connection: try once on a new one.
        m_retried = true;
        m_requestWriter.reset();
        return dial();
    }
    m_request->get().keep_alive(false);
    answer(status::bad_gateway, "The sandbox's server failed",
           "Port " + std::to_string(m_exposure.port) + ": " + what);
}

} // namespace lizard::proxy
