#include "http/exchange.h"

#include "http/httpsession.h"
#include "http/limits.h"
#include "http/responses.h"
#include "http/websocketconnection.h"

namespace lizard::http {

Exchange::Exchange(std::shared_ptr<HttpSession> session, Request request)
    : m_session(std::move(session)), m_request(std::move(request))
{
}

Exchange::~Exchange()
{
    if (!m_answered)
        m_session->sendResponse(
            errorResponse(Error{ErrorKind::Internal, "INTERNAL", "the request was not answered"}));
    else if (m_streaming && !m_streamEnded)
        m_session->abortStream();
}

std::string_view Exchange::path() const
{
    return targetPath(std::string_view(m_request.target().data(), m_request.target().size()));
}

std::optional<std::string> Exchange::query(std::string_view name) const
{
    return queryParam(std::string_view(m_request.target().data(), m_request.target().size()), name);
}

bool Exchange::wantsEventStream() const
{
    const auto accept = m_request[bhttp::field::accept];
    return std::string_view(accept.data(), accept.size()).find("text/event-stream") !=
           std::string_view::npos;
}

net::any_io_executor Exchange::executor() const
{
    return m_session->executor();
}

bool Exchange::isWebSocketUpgrade() const
{
    return websocket::is_upgrade(m_request);
}

std::shared_ptr<WebSocketConnection> Exchange::takeWebSocket()
{
    if (m_answered)
        return nullptr;
    m_answered = true;
    auto stream = m_session->detach();
    if (!stream)
        return nullptr;
    return std::make_shared<WebSocketConnection>(std::move(*stream));
}

void Exchange::reply(StringResponse&& response)
{
    if (m_answered)
        return;
    m_answered = true;
    m_session->sendResponse(std::move(response));
}

void Exchange::replyJson(int status, const nlohmann::json& body)
{
    reply(jsonResponse(status, body));
}
void Exchange::replyEmpty(int status)
{
    reply(emptyResponse(status));
}
void Exchange::replyError(const Error& error, const nlohmann::json& extra)
{
    reply(errorResponse(error, extra));
}

void Exchange::beginStream(int status, std::string_view contentType,
                           std::optional<uint64_t> contentLength, std::function<void(bool)> done)
{
    if (m_answered)
        return done(false);
    m_answered = true;
    m_streaming = true;
    bhttp::response<bhttp::empty_body> header{static_cast<bhttp::status>(status), 11};
    header.set(bhttp::field::server, "lizard-local/" LIZARD_VERSION);
    header.set(bhttp::field::content_type, contentType);
    header.set(bhttp::field::cache_control, "no-store");
    if (contentType == "text/event-stream")
        header.set("X-Lizard-Keepalive-Ms", std::to_string(connectionLimits().keepalive.count()));
    if (contentLength)
        header.content_length(*contentLength);
    else
        header.chunked(true);
    m_session->startStream(std::move(header), std::move(done));
}

void Exchange::write(std::string data, std::function<void(bool)> done)
{
    m_session->writeStream(std::make_shared<const std::string>(std::move(data)), std::move(done));
}

void Exchange::endStream()
{
    if (m_streamEnded)
        return;
    m_streamEnded = true;
    m_session->endStream();
}

void Exchange::abortStream()
{
    m_answered = true;
    m_streamEnded = true;
    m_session->abortStream();
}

void Exchange::onClientGone(std::function<void()> onGone)
{
    m_session->watchClose(std::move(onGone));
}

} // namespace lizard::http
