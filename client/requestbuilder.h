#pragma once
// Builds the HTTP requests LizardApi sends: URL from the endpoint, the SDK's headers
// (X-API-Key, JSON content type) and our User-Agent.

#include "client/httpmessage.h"
#include "client/types.h"

#include <optional>

namespace lizard::client {

class RequestBuilder
{
public:
    explicit RequestBuilder(const Endpoint& endpoint);

    // pathAndQuery is already encoded ("/api/sandboxes/sb%20x/files?path=..."). A body, when
    // given, is sent as application/json.
    HttpRequest json(const QByteArray& method, const QByteArray& pathAndQuery,
                     const std::optional<QByteArray>& body = std::nullopt) const;
    // POST with Accept: text/event-stream; the answer is delivered as it arrives.
    HttpRequest eventStream(const QByteArray& pathAndQuery, const QByteArray& body) const;
    // GET with Accept: text/event-stream and no time limit: a log followed while its source lives.
    HttpRequest follow(const QByteArray& pathAndQuery) const;

    static QByteArray userAgent();
    static constexpr long kDefaultTimeoutMs = 120000; // the SDK's requestTimeoutMs

private:
    QByteArray m_base;
    QByteArray m_key;
    QString m_caFile;
};

} // namespace lizard::client
