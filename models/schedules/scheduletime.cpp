#include "models/schedules/scheduletime.h"

namespace lizard::models {

namespace {

QString spanText(qint64 secs)
{
    if (secs < 60)
        return QStringLiteral("%1 s").arg(secs);
    if (secs < 3600)
        return QStringLiteral("%1 min").arg(secs / 60);
    if (secs < 86400) {
        const qint64 minutes = secs % 3600 / 60;
        return minutes == 0 ? QStringLiteral("%1 h").arg(secs / 3600)
                            : QStringLiteral("%1 h %2 min").arg(secs / 3600).arg(minutes);
    }
    return QStringLiteral("%1 d").arg(secs / 86400);
}

} // namespace

QString formatRelativeTime(const QDateTime& at, const QDateTime& now)
{
    if (!at.isValid())
        return {};
    const qint64 ms = now.msecsTo(at);
    if (ms > -1000 && ms < 1000)
        return QStringLiteral("now");
    // Rounded up ahead and down behind, so that "in 0 s" and "-0 s" never show.
    if (ms > 0)
        return QStringLiteral("in ") + spanText((ms + 999) / 1000);
    return spanText(-ms / 1000) + QStringLiteral(" ago");
}

QString formatScheduleDuration(qint64 ms)
{
    if (ms < 0)
        return {};
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms);
    if (ms < 60000)
        return QString::number(double(ms) / 1000.0, 'f', 1) + QStringLiteral(" s");
    const qint64 secs = ms / 1000;
    if (secs < 3600)
        return QStringLiteral("%1 min %2 s").arg(secs / 60).arg(secs % 60);
    return QStringLiteral("%1 h %2 min").arg(secs / 3600).arg(secs % 3600 / 60);
}

QString formatScheduleSeconds(qint64 seconds)
{
    if (seconds <= 0)
        return {};
    QString out;
    const qint64 days = seconds / 86400;
    const qint64 hours = seconds % 86400 / 3600;
    const qint64 minutes = seconds % 3600 / 60;
    const qint64 secs = seconds % 60;
    if (days)
        out += QString::number(days) + QLatin1Char('d');
    if (hours)
        out += QString::number(hours) + QLatin1Char('h');
    if (minutes)
        out += QString::number(minutes) + QLatin1Char('m');
    if (secs)
        out += QString::number(secs) + QLatin1Char('s');
    return out;
}

} // namespace lizard::models
