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
        QStringLiteral("^lizard-local (\\S+) listening on (http://\\S+)\\s*$"),
        QRegularExpression::MultilineOption);
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
    // lizard-local logs its runtime capabilities once at start-up, e.g.
    //   "<time> info runtime: cgroup mode v1, limits no (cgroup not writable)".
    // Keep what the host cannot do, in words for the status bar; only the last run counts.
    static const QRegularExpression sandboxes(
        QStringLiteral("runtime: sandboxes no \\((.*)\\)\\s*$"));
    static const QRegularExpression limits(
        QStringLiteral("runtime: cgroup mode (\\S+), limits no(?: \\((.*)\\))?\\s*$"));
    static const QRegularExpression uids(QStringLiteral("runtime: full uid range no"));
    static const QRegularExpression network(QStringLiteral("runtime: .*network no"));
    static const QRegularExpression interpreter(
        QStringLiteral("runtime: interpreter template no(?: \\(missing: (.*)\\))?\\s*$"));
    QStringList notes;
    bool announced = false; // capabilities are logged before "listening on"
    const QStringList lines = log.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString& line : lines) {
        if (line.contains(QLatin1String(" listening on http"))) {
            announced = true;
            continue;
        }
        if (announced && line.contains(QLatin1String("runtime: "))) {
            notes.clear(); // a later run of the server: its own notes follow
            announced = false;
        }
        if (const auto m = sandboxes.match(line); m.hasMatch())
            notes << QStringLiteral("sandboxes unavailable: %1").arg(m.captured(1));
        if (const auto m = limits.match(line); m.hasMatch())
            notes << (m.captured(2).isEmpty()
                          ? QStringLiteral("resource limits not enforced")
                          : QStringLiteral("resource limits not enforced (%1)").arg(m.captured(2)));
        if (uids.match(line).hasMatch())
            notes << QStringLiteral("one user id inside sandboxes (no subordinate uid range)");
        if (network.match(line).hasMatch())
            notes << QStringLiteral("no internet access from sandboxes");
        if (const auto m = interpreter.match(line); m.hasMatch())
            notes << (m.captured(1).isEmpty()
                          ? QStringLiteral("interpreter template unavailable")
                          : QStringLiteral("interpreter template unavailable (missing %1)")
                                .arg(m.captured(1)));
    }
    notes.removeDuplicates();
    return notes;
}

} // namespace lizard::app
