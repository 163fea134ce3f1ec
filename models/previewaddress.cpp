#include "models/previewaddress.h"

#include <QStringList>

namespace lizard::models {

namespace {
const QString kTokenParam = QStringLiteral("lizard_token");
}

PreviewAddress::PreviewAddress(const client::ExposedPort& exposure)
    : m_token(exposure.accessToken.toUtf8()), m_port(exposure.port)
{
    const QUrl url(exposure.url);
    if (url.isValid() && !url.host().isEmpty()) {
        m_start = withoutToken(url);
        if (m_start.path().isEmpty())
            m_start.setPath(QStringLiteral("/"));
        m_origin = m_start.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment);
        m_origin.setPath(QStringLiteral("/"));
    }
}

QUrl PreviewAddress::startUrl() const
{
    return m_start;
}

bool PreviewAddress::isSameOrigin(const QUrl& url) const
{
    const int defaultPort = m_origin.scheme() == QLatin1String("https") ? 443 : 80;
    return isValid() && url.scheme() == m_origin.scheme() &&
           url.host().compare(m_origin.host(), Qt::CaseInsensitive) == 0 &&
           url.port(defaultPort) == m_origin.port(defaultPort);
}

QUrl PreviewAddress::withoutToken(const QUrl& url)
{
    // Item by item on the encoded query, so every other item keeps its exact bytes.
    if (!url.hasQuery())
        return url;
    QStringList kept;
    for (const QString& item : url.query(QUrl::FullyEncoded).split(QLatin1Char('&'))) {
        const QString key = item.section(QLatin1Char('='), 0, 0);
        if (QUrl::fromPercentEncoding(key.toLatin1()) != kTokenParam)
            kept.append(item);
    }
    QUrl out = url;
    out.setQuery(kept.isEmpty() ? QString() : kept.join(QLatin1Char('&')), QUrl::TolerantMode);
    return out;
}

QUrl PreviewAddress::shareable(const QUrl& url) const
{
    if (!isSameOrigin(url) || m_token.isEmpty())
        return url;
    QUrl out = withoutToken(url);
    QString query = out.query(QUrl::FullyEncoded);
    if (!query.isEmpty())
        query += QLatin1Char('&');
    query += kTokenParam + QLatin1Char('=') +
             QString::fromLatin1(QUrl::toPercentEncoding(QString::fromUtf8(m_token)));
    out.setQuery(query, QUrl::TolerantMode);
    return out;
}

QUrl PreviewAddress::resolveTyped(const QString& text) const
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return m_start;
    const QUrl typed = QUrl::fromUserInput(t);
    const bool full = t.contains(QStringLiteral("://")) ||
                      t.startsWith(m_origin.host() + QLatin1Char(':')) ||
                      t.startsWith(m_origin.host() + QLatin1Char('/')) || t == m_origin.host();
    if (full && typed.isValid())
        return typed;
    // A path (or "path?query") on the exposure itself.
    return m_origin.resolved(QUrl(t.startsWith(QLatin1Char('/')) ? t : QLatin1Char('/') + t));
}

} // namespace lizard::models
