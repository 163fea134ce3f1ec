#include "client/requestbuilder.h"

#include "client/keytransport.h"
#include "client/tlsconfig.h"

namespace lizard::client {

RequestBuilder::RequestBuilder(const Endpoint& endpoint)
    : m_base(endpoint.baseUrl.trimmed().toUtf8()), m_key(endpoint.apiKey.trimmed().toUtf8()),
      m_caFile(caFileFor(endpoint))
{
    while (m_base.endsWith('/'))
        m_base.chop(1);
    // Header injection guard: a key with line breaks would smuggle headers.
    m_key.replace('\r', "").replace('\n', "");
    // Defence in depth behind the Connections dialog's warning: whatever path built this
    // endpoint, an unconfirmed key does not go out unencrypted (the server answers 401).
    if (!endpoint.keyInClearConfirmed && keyTravelsInClear(endpoint.baseUrl))
        m_key.clear();
}

QByteArray RequestBuilder::userAgent()
{
    return QByteArrayLiteral("lizard-desktop/" LIZARD_CLIENT_VERSION);
}

HttpRequest RequestBuilder::json(const QByteArray& method, const QByteArray& pathAndQuery,
                                 const std::optional<QByteArray>& body) const
{
    HttpRequest r;
    r.method = method;
    r.url = m_base + pathAndQuery;
    r.timeoutMs = kDefaultTimeoutMs;
    r.caFile = m_caFile;
    r.headers.append("User-Agent: " + userAgent());
    r.headers.append("Accept: application/json, */*;q=0.5");
    if (!m_key.isEmpty())
        r.headers.append("X-API-Key: " + m_key);
    if (body) {
        r.hasBody = true;
        r.body = *body;
        r.headers.append("Content-Type: application/json");
    }
    return r;
}

namespace {

HttpRequest asEventStream(HttpRequest r)
{
    r.headers.removeIf([](const QByteArray& h) { return h.startsWith("Accept:"); });
    r.headers.append("Accept: text/event-stream");
    r.streaming = true;
    r.timeoutMs = 0;
    return r;
}

} // namespace

HttpRequest RequestBuilder::eventStream(const QByteArray& pathAndQuery,
                                        const QByteArray& body) const
{
    return asEventStream(json("POST", pathAndQuery, body));
}

HttpRequest RequestBuilder::follow(const QByteArray& pathAndQuery) const
{
    return asEventStream(json("GET", pathAndQuery));
}

} // namespace lizard::client
