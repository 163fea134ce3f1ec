#include "models/desktop/screenaddress.h"

#include <QUrlQuery>

namespace lizard::models {

QUrl ScreenAddress::viewerUrl(const client::DesktopInfo& info, bool control)
{
    QUrl url(control ? info.url : info.viewOnlyUrl);
    if (!url.isValid() || url.host().isEmpty())
        return {};
    QUrlQuery query(url);
    const auto set = [&query](const QString& key, const QString& value) {
        query.removeAllQueryItems(key);
        query.addQueryItem(key, value);
    };
    set(QStringLiteral("autoconnect"), QStringLiteral("true"));
    set(QStringLiteral("resize"), QStringLiteral("scale"));
    // A paused sandbox holds the stream's connection; after a resume, or a connection lost,
    // the page connects again by itself, soon enough that the screen seems to come back.
    set(QStringLiteral("reconnect"), QStringLiteral("true"));
    set(QStringLiteral("reconnect_delay"), QStringLiteral("250"));
    // Without control the page takes no keyboard or mouse, so nothing looks as if it were sent.
    set(QStringLiteral("view_only"), control ? QStringLiteral("false") : QStringLiteral("true"));
    // A dot where the pointer is when the screen draws none.
    set(QStringLiteral("show_dot"), QStringLiteral("true"));
    url.setQuery(query);
    return url;
}

QUrl ScreenAddress::origin(const QUrl& url)
{
    QUrl o;
    o.setScheme(url.scheme());
    o.setHost(url.host());
    o.setPort(url.port());
    o.setPath(QStringLiteral("/"));
    return o;
}

QByteArray ScreenAddress::token(const QUrl& url)
{
    return QUrlQuery(url)
        .queryItemValue(QStringLiteral("lizard_token"), QUrl::FullyDecoded)
        .toUtf8();
}

} // namespace lizard::models
