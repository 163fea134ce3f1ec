#include "http/exchange.h"

#include "http/httpsession.h"
#include "http/responses.h"

namespace lizard::http {

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

std::string percentDecode(std::string_view text, bool plusIsSpace)
{
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '%' && i + 2 < text.size()) {
            const int hi = hexValue(text[i + 1]);
            const int lo = hexValue(text[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out.push_back(char(hi * 16 + lo));
                i += 2;
                continue;
            }
        }
        out.push_back(plusIsSpace && c == '+' ? ' ' : c);
    }
    return out;
}

Exchange::Exchange(std::shared_ptr<HttpSession> session, Request request)
    : m_session(std::move(session)), m_request(std::move(request))
{
}

Exchange::~Exchange()
{
    if (!m_answered)
        m_session->sendResponse(
            errorResponse(Error{500, "INTERNAL", "the request was not answered"}));
    else if (m_streaming && !m_streamEnded)
        m_session->abortStream();
}

std::string_view Exchange::path() const
{
    const std::string_view target(m_request.target().data(), m_request.target().size());
    return target.substr(0, target.find('?'));
}

std::optional<std::string> Exchange::query(std::string_view name) const
{
    const std::string_view target(m_request.target().data(), m_request.target().size());
    const auto q = target.find('?');
    if (q == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = target.substr(q + 1);
    while (!rest.empty()) {
        const auto amp = rest.find('&');
        const std::string_view pair = rest.substr(0, amp);
        const auto eq = pair.find('=');
        if (percentDecode(pair.substr(0, eq), true) == name)
            return eq == std::string_view::npos ? std::string()
                                                : percentDecode(pair.substr(eq + 1), true);
        if (amp == std::string_view::npos)
            break;
        rest = rest.substr(amp + 1);
    }
    return std::nullopt;
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
