#pragma once
// Helpers of tst_sec_limits: what a sandbox's processes are, seen from the host (the test
// runs as root in both CI modes), and timing of API calls.

#include "escape_support.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <algorithm>
#include <atomic>
#include <sys/stat.h>
#include <thread>
#include <vector>

namespace lizard::test {

// The host pid of the sandbox's PID 1 (<data>/sandboxes/<id>/init.pid: "pid starttime").
inline qint64 sandboxInitPid(const LocalServer& server, const QString& id)
{
    QFile f(server.dataDir() + "/sandboxes/" + id + "/init.pid");
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return QString::fromLatin1(f.readAll()).split(' ').value(0).toLongLong();
}

// The inode of a process's pid namespace, 0 if it is gone.
inline quint64 pidNamespace(qint64 pid)
{
    struct stat st
    {
    };
    const QByteArray path = QStringLiteral("/proc/%1/ns/pid").arg(pid).toLocal8Bit();
    return ::stat(path.constData(), &st) == 0 ? quint64(st.st_ino) : 0;
}

struct TaskCount
{
    int processes = 0;
    int tasks = 0; // threads included: what pids limits count
};

// The host pids of the processes that live in pid namespace `ns`.
inline QList<qint64> pidsInNamespace(quint64 ns)
{
    QList<qint64> found;
    for (const QString& p : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool number = false;
        const qint64 pid = p.toLongLong(&number);
        if (number && pidNamespace(pid) == ns)
            found << pid;
    }
    return found;
}

// Processes and tasks on the host that live in pid namespace `ns`.
inline TaskCount tasksInNamespace(quint64 ns)
{
    TaskCount c;
    for (const qint64 pid : pidsInNamespace(ns)) {
        ++c.processes;
        c.tasks += std::max<int>(1, int(QDir(QStringLiteral("/proc/%1/task").arg(pid))
                                            .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                                            .size()));
    }
    return c;
}

// What the processes left in pid namespace `ns` are doing, for a failure's message: how many
// are in each state (R, S, D, Z, ...) and, for a few, where in the kernel they wait.
inline QString describeTasksInNamespace(quint64 ns)
{
    QMap<QChar, int> states;
    QStringList samples;
    for (const qint64 pid : pidsInNamespace(ns)) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // "pid (comm) S ppid ...": the comm may hold spaces and parentheses.
        const QList<QByteArray> rest = line.mid(line.lastIndexOf(')') + 2).split(' ');
        const QChar state =
            rest.isEmpty() || rest.front().isEmpty() ? QChar('?') : QChar(rest.front().at(0));
        ++states[state];
        if (samples.size() < 12 && (samples.size() < 5 || state == 'D')) {
            QFile wchan(QStringLiteral("/proc/%1/wchan").arg(pid));
            const QByteArray where = wchan.open(QIODevice::ReadOnly) ? wchan.readAll() : "?";
            samples << QStringLiteral("%1 %2 ppid %3 in %4")
                           .arg(pid)
                           .arg(state)
                           .arg(QString::fromLatin1(rest.value(1)))
                           .arg(QString::fromLatin1(where));
        }
    }
    QStringList counts;
    for (auto it = states.cbegin(); it != states.cend(); ++it)
        counts << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
    return counts.join(", ") + "; " + samples.join("; ");
}

// MemAvailable of the host in MiB.
inline qint64 hostAvailableMb()
{
    QFile f("/proc/meminfo");
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.startsWith("MemAvailable:"))
            return line.mid(13).trimmed().split(' ').value(0).toLongLong() / 1024;
    }
    return -1;
}

// A memory bomb run in a sandbox while the host's MemAvailable is watched.
struct WatchedRun
{
    ProbeResult result;
    qint64 before = 0; // MiB available when it started
    qint64 lowest = 0; // the least seen while it ran
};

inline WatchedRun runWatchingHostMemory(const LocalServer& server, const QString& id,
                                        const QString& code)
{
    WatchedRun w;
    w.before = w.lowest = hostAvailableMb();
    std::atomic<bool> done{false};
    std::thread bomb([&] {
        w.result = runPython(server, id, code, {}, 120000);
        done = true;
    });
    while (!done) {
        w.lowest = std::min(w.lowest, hostAvailableMb());
        QTest::qWait(50);
    }
    bomb.join();
    return w;
}

struct Timings
{
    std::vector<double> ms;
    void add(const QElapsedTimer& clock) { ms.push_back(double(clock.nsecsElapsed()) / 1e6); }
    double median() const
    {
        if (ms.empty())
            return -1;
        std::vector<double> s = ms;
        std::sort(s.begin(), s.end());
        return s[s.size() / 2];
    }
    double max() const { return ms.empty() ? -1 : *std::max_element(ms.begin(), ms.end()); }
    QString text() const
    {
        QStringList parts;
        for (double v : ms)
            parts << QString::number(v, 'f', 1);
        return QStringLiteral("median %1 ms, max %2 ms [%3]")
            .arg(median(), 0, 'f', 1)
            .arg(max(), 0, 'f', 1)
            .arg(parts.join(' '));
    }
};

} // namespace lizard::test
