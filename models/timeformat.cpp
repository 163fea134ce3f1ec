#include "models/timeformat.h"

#include <algorithm>

namespace lizard::models {

QString formatTimeLeft(const QDateTime& endAt, const QDateTime& now)
{
    if (!endAt.isValid())
        return QStringLiteral("no limit");
    const qint64 secs = now.secsTo(endAt);
    if (secs <= 0)
        return QStringLiteral("expired");
    const qint64 days = secs / 86400;
    const qint64 h = (secs % 86400) / 3600;
    const qint64 m = (secs % 3600) / 60;
    const qint64 s = secs % 60;
    const auto two = [](qint64 v) { return QStringLiteral("%1").arg(v, 2, 10, QLatin1Char('0')); };
    if (days > 0)
        return QStringLiteral("%1d %2:%3:%4").arg(days).arg(two(h), two(m), two(s));
    if (h > 0)
        return QStringLiteral("%1:%2:%3").arg(h).arg(two(m), two(s));
    return QStringLiteral("%1:%2").arg(m).arg(two(s));
}

QString formatStarted(const QDateTime& startedAt, const QDateTime& now)
{
    if (!startedAt.isValid())
        return {};
    const QDateTime local = startedAt.toLocalTime();
    if (local.date() == now.toLocalTime().date())
        return local.toString(QStringLiteral("hh:mm:ss"));
    return local.toString(QStringLiteral("yyyy-MM-dd hh:mm"));
}

QString formatAgo(const QDateTime& then, const QDateTime& now)
{
    if (!then.isValid())
        return {};
    const qint64 secs = std::max<qint64>(0, then.secsTo(now)); // a clock a little ahead: now
    if (secs < 10)
        return QStringLiteral("just now");
    if (secs < 60)
        return QStringLiteral("%1 s ago").arg(secs);
    if (secs < 3600)
        return QStringLiteral("%1 min ago").arg(secs / 60);
    if (secs < 86400) {
        const qint64 m = (secs % 3600) / 60;
        return m == 0 ? QStringLiteral("%1 h ago").arg(secs / 3600)
                      : QStringLiteral("%1 h %2 min ago").arg(secs / 3600).arg(m);
    }
    const qint64 days = secs / 86400;
    return days == 1 ? QStringLiteral("1 day ago") : QStringLiteral("%1 days ago").arg(days);
}

QString formatAbsolute(const QDateTime& t)
{
    return t.isValid() ? t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"))
                       : QString();
}

} // namespace lizard::models
