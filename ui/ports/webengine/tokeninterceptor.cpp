#include "tokeninterceptor.h"

namespace lizard::ui::ports::webengine {

namespace {

// ws and wss go to the same origin as http and https.
QString httpScheme(const QString& scheme)
{
    if (scheme == QLatin1String("ws"))
        return QStringLiteral("http");
    if (scheme == QLatin1String("wss"))
        return QStringLiteral("https");
    return scheme;
}

int portOf(const QUrl& url, const QString& scheme)
{
    return url.port(scheme == QLatin1String("https") ? 443 : 80);
}

} // namespace

TokenInterceptor::TokenInterceptor(const QUrl& origin, const QByteArray& token, QObject* parent)
    : QWebEngineUrlRequestInterceptor(parent), m_scheme(httpScheme(origin.scheme())),
      m_host(origin.host().toLower()), m_port(portOf(origin, m_scheme)), m_token(token)
{
}

bool TokenInterceptor::appliesTo(const QUrl& url) const
{
    const QString scheme = httpScheme(url.scheme());
    return !m_host.isEmpty() && scheme == m_scheme && url.host().toLower() == m_host &&
           portOf(url, scheme) == m_port;
}

void TokenInterceptor::interceptRequest(QWebEngineUrlRequestInfo& info)
{
    if (!m_token.isEmpty() && appliesTo(info.requestUrl()))
        info.setHttpHeader(QByteArrayLiteral("X-Lizard-Access-Token"), m_token);
}

} // namespace lizard::ui::ports::webengine
