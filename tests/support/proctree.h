#pragma once
// The host's processes below a pid, read from /proc: for tests that check what a command left
// running, or that kill a tree the way the agent does.

#include <QDir>
#include <QFile>
#include <QList>
#include <QMap>
#include <QString>

namespace lizard::test {

struct ProcEntry
{
    qint64 pid = 0;
    QString name; // comm
};

// Every descendant of root (not root itself), parents before their children.
inline QList<ProcEntry> descendants(qint64 root)
{
    QMap<qint64, QList<ProcEntry>> children; // by parent pid
    for (const QString& entry : QDir("/proc").entryList(QDir::Dirs)) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        QFile stat("/proc/" + entry + "/stat");
        if (!isPid || !stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray s = stat.readAll();
        const qsizetype open = s.indexOf('('), close = s.lastIndexOf(')');
        if (open < 0 || close < 0)
            continue;
        const qint64 parent = s.mid(close + 2).split(' ').value(1).toLongLong();
        children[parent].append({pid, QString::fromUtf8(s.mid(open + 1, close - open - 1))});
    }
    QList<ProcEntry> out;
    QList<ProcEntry> todo = children.value(root);
    while (!todo.isEmpty()) {
        const ProcEntry p = todo.takeFirst();
        out << p;
        todo += children.value(p.pid);
    }
    return out;
}

} // namespace lizard::test
