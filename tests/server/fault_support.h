#pragma once
// Helpers of the fault-injection suites (tst_fault_*): what of a sandbox is left on the host
// after a fault, and the host pid of its PID 1.

#include "support_http.h"

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QStringList>

namespace lizard::test {

// "pid starttime" of the sandbox's PID 1 from <data>/sandboxes/<id>/init.pid ({0, 0} if none).
inline QPair<qint64, qint64> initPidOf(const LocalServer& server, const QString& id)
{
    QFile f(server.dataDir() + "/sandboxes/" + id + "/init.pid");
    if (!f.open(QIODevice::ReadOnly))
        return {0, 0};
    const QStringList parts = QString::fromLatin1(f.readAll()).simplified().split(' ');
    return {parts.value(0).toLongLong(), parts.value(1).toLongLong()};
}

// Field 22 of /proc/<pid>/stat (start time in clock ticks), 0 if the process is gone or a zombie.
inline qint64 liveStartTime(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 1 || !stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    const QList<QByteArray> f = line.mid(close + 2).split(' '); // f[0] is field 3 (state)
    if (close < 0 || f.size() < 20 || f[0] == "Z")
        return 0;
    return f[19].toLongLong();
}

// Everything of sandbox `id` still on the host: mounts naming it, cgroups named after it, loop
// devices backed by its disk image, its directory. Empty when nothing is left.
inline QStringList sandboxResidue(const QString& dataDir, const QString& id)
{
    QStringList left;
    QFile mounts("/proc/self/mountinfo");
    if (mounts.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : mounts.readAll().split('\n'))
            if (line.contains(id.toUtf8()))
                left << "mount: " + QString::fromUtf8(line);
    }
    for (const QString& ctrl :
         QDir("/sys/fs/cgroup").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        for (const QString& base :
             {"/sys/fs/cgroup/" + ctrl + "/lizard-local", QString("/sys/fs/cgroup/lizard-local")}) {
            QDirIterator it(base, QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
            while (it.hasNext())
                if (it.next().endsWith("/" + id))
                    left << "cgroup: " + it.filePath();
        }
    }
    const QString image = dataDir + "/disks/" + id + ".img";
    QProcess losetup;
    losetup.start("losetup", {"-j", image});
    if (losetup.waitForFinished(5000)) {
        const QByteArray out = losetup.readAllStandardOutput().trimmed();
        if (!out.isEmpty())
            left << "loop: " + QString::fromUtf8(out);
    }
    if (QFile::exists(dataDir + "/sandboxes/" + id))
        left << "dir: " + dataDir + "/sandboxes/" + id;
    left.removeDuplicates();
    return left;
}

} // namespace lizard::test
