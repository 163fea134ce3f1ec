#include "client/urlencoding.h"

namespace lizard::client {

QByteArray encodeUriComponent(const QString& value)
{
    // Space becomes %20 (never '+'), which every query parser reads back as a space.
    return value.toUtf8().toPercentEncoding("!~*'()");
}

QByteArray withQuery(const QByteArray& path, const QList<QPair<QByteArray, QString>>& query)
{
    QByteArray out = path;
    char sep = '?';
    for (const auto& [key, value] : query) {
        if (value.isEmpty())
            continue;
        out += sep;
        out +=
            QString::fromLatin1(key).toUtf8().toPercentEncoding() + '=' + encodeUriComponent(value);
        sep = '&';
    }
    return out;
}

} // namespace lizard::client
