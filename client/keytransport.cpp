#include "client/keytransport.h"

#include <QStringList>
#include <QUrl>

namespace lizard::client {

bool isLoopbackHost(const QString& host)
{
    QString h = host.toLower();
    if (h.startsWith(QLatin1Char('[')) && h.endsWith(QLatin1Char(']')))
        h = h.mid(1, h.size() - 2);
    if (h.endsWith(QLatin1Char('.')))
        h.chop(1);
    if (h == QLatin1String("localhost") || h == QLatin1String("::1") ||
        h == QLatin1String("0:0:0:0:0:0:0:1"))
        return true;
    const QStringList parts = h.split(QLatin1Char('.'));
    if (parts.size() != 4)
        return false;
    for (const QString& p : parts) {
        bool ok = false;
        const int v = p.toInt(&ok, 10);
        if (!ok || p.isEmpty() || p.size() > 3 || v < 0 || v > 255)
            return false;
    }
    return parts.first().toInt() == 127;
}

bool keyTravelsInClear(const QString& baseUrl)
{
    const QUrl url(baseUrl.trimmed());
    const QString scheme = url.scheme().toLower();
    if (scheme == QLatin1String("https"))
        return false;
    return !(url.isValid() && scheme == QLatin1String("http") && isLoopbackHost(url.host()));
}

} // namespace lizard::client
