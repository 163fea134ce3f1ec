#include "processmemory.h"

#include <QDir>
#include <QFile>
#include <QHash>

namespace lizard::bench {

qint64 rssKb(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    return 0;
}

QList<qint64> descendantsOf(qint64 pid)
{
    // ppid is the 4th field of /proc/PID/stat, after "(comm)" which may hold spaces.
    QHash<qint64, QList<qint64>> children;
    const QStringList entries =
        QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& e : entries) {
        bool ok = false;
        const qint64 p = e.toLongLong(&ok);
        if (!ok)
            continue;
        QFile f(QStringLiteral("/proc/%1/stat").arg(p));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray stat = f.readAll();
        const qsizetype close = stat.lastIndexOf(')');
        if (close < 0)
            continue;
        const QList<QByteArray> rest = stat.mid(close + 2).split(' ');
        if (rest.size() > 1)
            children[rest[1].toLongLong()].append(p);
    }
    QList<qint64> out;
    QList<qint64> queue{pid};
    while (!queue.isEmpty()) {
        for (qint64 c : children.value(queue.takeFirst())) {
            out.append(c);
            queue.append(c);
        }
    }
    return out;
}

qint64 treeRssKb(qint64 pid)
{
    qint64 sum = rssKb(pid);
    for (qint64 c : descendantsOf(pid))
        sum += rssKb(c);
    return sum;
}

bool libraryMapped(const char* namePart)
{
    QFile maps(QStringLiteral("/proc/self/maps"));
    return maps.open(QIODevice::ReadOnly) && maps.readAll().contains(namePart);
}

} // namespace lizard::bench
