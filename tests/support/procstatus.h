#pragma once
// Fields of a process's /proc/<pid>/status, for tests that watch a server's memory.

#include <QByteArray>
#include <QFile>
#include <QString>

namespace lizard::test {

// VmRSS of a process in KiB (0 if unknown).
inline qint64 rssKiB(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return 0;
}

} // namespace lizard::test
