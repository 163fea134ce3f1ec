// The systemd user manager path of the runtime's limits (runtime/systemdscope.h): the
// properties asked for, and the check that a process's cgroup really has them. The path
// itself needs a systemd user manager with cgroup v2, which CI hosts (cgroup v1, no user
// manager) lack: there the probe must say why it is not used.
#include "runtime/systemdscope.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <unistd.h>

using lizard::runtime::Limits;
using lizard::runtime::SystemdScope;

class TestSystemdScope : public QObject
{
    Q_OBJECT

    static void put(const QString& path, const QByteArray& text)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }

private slots:
    void propertiesSayTheLimits()
    {
        const auto p = SystemdScope::properties(Limits{2, 4096, 1024});
        QCOMPARE(p.size(), std::size_t(4));
        QCOMPARE(QString::fromStdString(p[0]), QString("TasksMax=1024"));
        QCOMPARE(QString::fromStdString(p[1]), QString("MemoryMax=4294967296"));
        QCOMPARE(QString::fromStdString(p[2]), QString("MemorySwapMax=0"));
        QCOMPARE(QString::fromStdString(p[3]), QString("CPUQuota=200%"));
        QCOMPARE(QString::fromStdString(SystemdScope::properties(Limits{0.5, 1024, 1024})[3]),
                 QString("CPUQuota=50%"));
    }

    void enforcedReadsTheProcessCgroup()
    {
        // A fake cgroup v2 root with this process's own cgroup path in it.
        QFile self("/proc/self/cgroup");
        QVERIFY(self.open(QIODevice::ReadOnly));
        QString path;
        for (const QByteArray& line : self.readAll().split('\n'))
            if (line.startsWith("0::"))
                path = QString::fromUtf8(line.mid(3));
        QVERIFY(!path.isEmpty());
        QTemporaryDir root;
        const QString dir = root.path() + path;
        QVERIFY(QDir().mkpath(dir));
        put(dir + "/pids.max", "1024\n");
        put(dir + "/memory.max", "4294967296\n");
        put(dir + "/cpu.max", "200000 100000\n");
        const Limits limits{2, 4096, 1024};
        QVERIFY(SystemdScope::enforced(::getpid(), limits, root.path().toStdString()));
        put(dir + "/memory.max", "max\n"); // asked, not given: never reported as enforced
        QVERIFY(!SystemdScope::enforced(::getpid(), limits, root.path().toStdString()));
    }

    void probeSaysWhyNotWhereThereIsNoUserManager()
    {
        SystemdScope scope;
        scope.probe();
        const bool userManager =
            qEnvironmentVariableIsSet("XDG_RUNTIME_DIR") &&
            QFile::exists(qEnvironmentVariable("XDG_RUNTIME_DIR") + "/systemd/private");
        if (::getuid() == 0 || !QFile::exists("/sys/fs/cgroup/cgroup.controllers") ||
            !userManager) {
            QVERIFY(!scope.usable());
            QVERIFY2(!scope.note().empty(), "the probe must say why");
            qInfo() << "systemd scope not used here:" << scope.note().c_str();
        } else {
            qInfo() << "systemd scope:" << (scope.usable() ? "usable" : scope.note().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestSystemdScope)
#include "tst_systemd_scope.moc"
