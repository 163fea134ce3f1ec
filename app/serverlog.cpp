#include "app/serverlog.h"

#include <QFile>
#include <QRegularExpression>

namespace lizard::app {

QString readServerLog(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    constexpr qint64 kMax = 256 * 1024;
    if (file.size() > kMax)
        file.seek(file.size() - kMax);
    return QString::fromUtf8(file.readAll());
}

ServerAnnouncement parseAnnouncement(const QString& log)
{
    static const QRegularExpression listening(
        QStringLiteral("^lizard-local (\\S+) listening on (http://\\S+)\\s*$"), QRegularExpression::MultilineOption);
    static const QRegularExpression keyFile(QStringLiteral("^key file: (.+?)\\s*$"),
                                            QRegularExpression::MultilineOption);
    ServerAnnouncement result;
    // The last announcement wins: the log may hold an earlier run.
    auto it = listening.globalMatch(log);
    while (it.hasNext()) {
        const auto m = it.next();
        result.version = m.captured(1);
        result.url = m.captured(2);
    }
    auto kit = keyFile.globalMatch(log);
    while (kit.hasNext())
        result.keyFile = kit.next().captured(1);
    return result;
}

QStringList capabilityNotes(const QString& log)
{
    // lizard-local logs what the host cannot do; keep those lines, short and unique.
    static const QRegularExpression limitation(
        QStringLiteral("(not enforced|unavailable|not available|disabled|missing|cannot|no user namespaces)"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression prefix(QStringLiteral("^(\\[[^\\]]*\\]\\s*|lizard-local:\\s*|\\S+Z\\s+)+"));
    QStringList notes;
    const QStringList lines = log.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (QString line : lines) {
        if (!limitation.match(line).hasMatch())
            continue;
        line = line.trimmed().remove(prefix);
        if (!line.isEmpty() && !notes.contains(line))
            notes.append(line);
    }
    return notes;
}

} // namespace lizard::app
