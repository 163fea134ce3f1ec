// Sandboxes of a lizard-local that was killed and never started again end by themselves: at
// their deadline (plus a margin) and after the grace period without a renewal of their lease.
// What the host held for them goes with them: no mount of their disk images (as root), no
// loop device, no cgroup, and the server's pool of mounted disks goes with the server.
// Controls: while the server runs, nothing ends early; a restart within the grace period
// adopts them; a sandbox paused when the server died is not ended for having been frozen, and
// keeps its disk. A server killed while it still starts leaves no disk of its pool mounted.
#include "hostleftovers.h"
#include "support_http.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <csignal>
#include <pwd.h>
#include <sys/mount.h>
#include <unistd.h>

using namespace lizard::test;

namespace {

// The deadline margin is a quarter of it (2 s), so the deadline path ends a sandbox whose
// deadline is 1 s away well before the grace period (6..8 s after the last renewal) could.
constexpr int kGraceS = 8;

// The host pid of the sandbox's PID 1 (<data>/sandboxes/<id>/init.pid: "pid starttime").
qint64 initPid(const LocalServer& server, const QString& id)
{
    QFile f(server.dataDir() + "/sandboxes/" + id + "/init.pid");
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return QString::fromLatin1(f.readAll()).split(' ').value(0).toLongLong();
}

// As root the log is on the sandbox's disk image, which is no longer mounted once the sandbox
// ended without its server: then it is read from the image itself.
QString agentLog(const LocalServer& server, const QString& id)
{
    QFile f(server.dataDir() + "/sandboxes/" + id + "/agent.log");
    if (f.open(QIODevice::ReadOnly))
        return QString::fromUtf8(f.readAll());
    const QString image = server.dataDir() + "/disks/" + id + ".img";
    if (!QFile::exists(image))
        return {};
    // Its loop device goes only once the file system let go of the image, written back.
    const QString real = QFileInfo(image).canonicalFilePath();
    for (QDeadlineTimer deadline(10000); !loopDevicesOn(real).isEmpty() && !deadline.hasExpired();)
        QTest::qWait(100);
    QProcess debugfs;
    QString program = QStandardPaths::findExecutable("debugfs");
    if (program.isEmpty())
        program = QStandardPaths::findExecutable("debugfs", {"/usr/sbin", "/sbin"});
    debugfs.start(program, {"-R", "cat /agent.log", image});
    debugfs.waitForFinished(10000);
    return QString::fromUtf8(debugfs.readAllStandardOutput());
}

// Running or stopped, but not a zombie nor gone.
bool runs(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 1 || !stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const int close = line.lastIndexOf(')');
    return close > 0 && line.size() > close + 2 && line.at(close + 2) != 'Z';
}

// Milliseconds until `pid` is gone, or -1 after `limitMs`.
qint64 msUntilGone(qint64 pid, int limitMs)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < limitMs) {
        if (!runs(pid))
            return clock.elapsed();
        QTest::qWait(50);
    }
    return -1;
}

} // namespace

class TestOrphans : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_project;

    QString create(int timeoutMs)
    {
        QString why;
        const QString id =
            createSandbox(m_server, {{"projectId", m_project}, {"timeoutMs", timeoutMs}}, &why);
        if (id.isEmpty())
            qWarning().noquote() << why;
        return id;
    }

    // A sandbox that must still run after a grace period and more: its PID 1 is there, it
    // answers an exec, and DELETE ends it.
    void stillRunsAfterAGracePeriod(const QString& id, qint64 pid, const QString& word)
    {
        QTest::qWait((kGraceS + 1) * 1000);
        QVERIFY2(runs(pid), qPrintable("the sandbox ended: " + word));
        const auto exec = jsonObject(m_server.request("POST", "/api/sandboxes/" + id + "/exec",
                                                      toJson({{"cmd", "echo " + word}})));
        QCOMPARE(exec.value("stdout").toString(), word + "\n");
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + id).status, 204);
    }

    // Waits (at most 30 s) until no process has a descriptor of a file below `dir` (a template
    // build a killed server started finishes by itself).
    static void waitUntilUnused(const QString& dir)
    {
        auto used = [&] {
            for (const QString& pid : QDir("/proc").entryList({"[0-9]*"}, QDir::Dirs)) {
                const QDir fds("/proc/" + pid + "/fd");
                for (const QString& fd : fds.entryList(QDir::System | QDir::NoDotAndDotDot)) {
                    if (QFile::symLinkTarget(fds.filePath(fd)).startsWith(dir + "/"))
                        return true;
                }
            }
            return false;
        };
        for (QDeadlineTimer deadline(30000); used() && !deadline.hasExpired();)
            QTest::qWait(100);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start({"--orphan-grace", QString::number(kGraceS)}),
                 qPrintable(m_server.errorString()));
        const auto projects = jsonArray(m_server.request("GET", "/api/projects"));
        QVERIFY(!projects.isEmpty());
        m_project = projects.first().toObject().value("id").toString();
        QString why;
        const QString probe = createSandbox(m_server, {{"projectId", m_project}}, &why);
        if (probe.isEmpty())
            QSKIP(qPrintable("sandboxes are not available on this host: " + why));
        m_server.request("DELETE", "/api/sandboxes/" + probe);
    }

    void leasesKeepSandboxesWhileTheServerRuns() // control
    {
        const QString id = create(0);
        QVERIFY(!id.isEmpty());
        const qint64 pid = initPid(m_server, id);
        QVERIFY(runs(pid));
        QTest::qWait((kGraceS + 1) * 1000);
        QVERIFY2(runs(pid), "a sandbox ended while its server renewed its lease");
        QCOMPARE(
            jsonObject(m_server.request("GET", "/api/sandboxes/" + id)).value("status").toString(),
            QStringLiteral("running"));
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + id).status, 204);
    }

    void aRestartWithinTheGracePeriodAdopts() // control
    {
        const QString id = create(0);
        QVERIFY(!id.isEmpty());
        const qint64 pid = initPid(m_server, id);
        QVERIFY(m_server.crash());
        QTest::qWait(kGraceS * 1000 / 3);
        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
        stillRunsAfterAGracePeriod(id, pid, "adopted");
    }

    void withoutServerSandboxesEndAtGraceAndDeadline()
    {
        const QString noDeadline = create(0);
        const QString deadline = create(60000);
        const QString paused = create(0);
        QVERIFY(!noDeadline.isEmpty() && !deadline.isEmpty() && !paused.isEmpty());
        QCOMPARE(m_server.request("POST", "/api/sandboxes/" + paused + "/pause").status, 204);
        const qint64 noDeadlinePid = initPid(m_server, noDeadline);
        const qint64 deadlinePid = initPid(m_server, deadline);
        const qint64 pausedPid = initPid(m_server, paused);
        const QString canonical = QFileInfo(m_server.dataDir()).canonicalFilePath();
        const bool diskImages = !mountsUnder(canonical + "/sandboxes/" + paused).isEmpty();
        qInfo().noquote() << (diskImages ? "disks are images mounted on the host"
                                         : "disks are directories (no image): no mount to check");
        // A timeout change reaches the agent: the deadline is now 1 s after the crash.
        QCOMPARE(
            m_server
                .request("POST", "/api/sandboxes/" + deadline + "/timeout", R"({"timeoutMs":1300})")
                .status,
            204);
        QTest::qWait(300); // the change's lease renewal is sent from a worker
        QVERIFY(m_server.crash());
        QElapsedTimer clock;
        clock.start();
        // Deadline 1 s + margin 2 s + a 0.25 s tick.
        const qint64 deadlineGone = msUntilGone(deadlinePid, 6000);
        const qint64 noDeadlineGone = msUntilGone(noDeadlinePid, 12000 - int(clock.elapsed()));
        qInfo().noquote() << "without a server: the sandbox with a deadline 1 s away ended after"
                          << deadlineGone << "ms; the one without a deadline after"
                          << clock.elapsed() << "ms (grace" << kGraceS << "s)";
        QVERIFY2(deadlineGone >= 0, "a sandbox outlived its deadline with no server");
        QVERIFY2(agentLog(m_server, deadline).contains("its deadline passed"),
                 qPrintable(agentLog(m_server, deadline)));
        QVERIFY2(noDeadlineGone >= 0, "a sandbox outlived its grace period with no server");
        QVERIFY2(clock.elapsed() >= (kGraceS - 2) * 1000,
                 qPrintable(QString::number(clock.elapsed())));
        QVERIFY2(agentLog(m_server, noDeadline).contains("no word from lizard-local"),
                 qPrintable(agentLog(m_server, noDeadline)));
        // Nothing of the ended ones is left on the host, and the server's pool of disks went
        // with it; the disk of the paused one, which still runs, stays (the control).
        const QString dataDir = QFileInfo(m_server.dataDir()).canonicalFilePath();
        for (const QString& gone : {noDeadline, deadline}) {
            const QStringList left = waitForNoLeftovers(dataDir, gone);
            QVERIFY2(left.isEmpty(), qPrintable("left behind by " + gone + ": " + left.join(", ")));
        }
        QVERIFY2(mountsUnder(dataDir + "/disks").isEmpty(),
                 qPrintable(mountsUnder(dataDir + "/disks").join(", ")));
        if (diskImages)
            QVERIFY2(mountsUnder(dataDir + "/sandboxes/" + paused).size() == 1,
                     "the paused sandbox lost its disk");
        // The frozen one waits for a server, however long.
        QTest::qWait(1000);
        QVERIFY2(runs(pausedPid), "a paused sandbox ended while frozen");

        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
        for (const QString& gone : {noDeadline, deadline})
            QCOMPARE(m_server.request("GET", "/api/sandboxes/" + gone).status, 404);
        QVERIFY(!QFile::exists(m_server.dataDir() + "/sandboxes/" + noDeadline));
        // Thawed, the paused one gets a fresh grace period and its server renews it.
        QCOMPARE(jsonObject(m_server.request("GET", "/api/sandboxes/" + paused))
                     .value("status")
                     .toString(),
                 QStringLiteral("paused"));
        QCOMPARE(m_server.request("POST", "/api/sandboxes/" + paused + "/resume").status, 204);
        stillRunsAfterAGracePeriod(paused, pausedPid, "thawed");
    }

    // A server killed while it built the template leaves its staging tree (about 40 MB); the
    // next start removes it. Control: the template itself stays.
    void aKilledTemplateBuildIsRemovedAtTheNextStart()
    {
        const QString templates = m_server.dataDir() + "/templates";
        const QString staging = templates + "/.staging-4194305";
        QVERIFY(QDir().mkpath(staging + "/root/var/lib/dpkg/info"));
        QFile file(staging + "/root/var/lib/dpkg/info/half-written.list");
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write("/usr\n") > 0);
        file.close();
        if (m_server.runsAsOtherUser()) { // as the server's user would have left it
            const passwd* pw = ::getpwnam(qPrintable(m_server.serverUser()));
            QVERIFY(pw != nullptr);
            QDirIterator it(staging, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                            QDirIterator::Subdirectories);
            QVERIFY(::chown(qPrintable(staging), pw->pw_uid, pw->pw_gid) == 0);
            while (it.hasNext())
                QVERIFY(::chown(qPrintable(it.next()), pw->pw_uid, pw->pw_gid) == 0);
        }
        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
        QVERIFY2(!QFileInfo::exists(staging), qPrintable(staging + " is still there"));
        const QStringList left = QDir(templates).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QVERIFY2(!left.isEmpty(), "the template went too");
        const QString id = createSandbox(m_server, {{"projectId", m_project}});
        QVERIFY(!id.isEmpty());
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + id).status, 204);
    }

    // A server killed while it starts, once the first disk of its pool is mounted (before it
    // handles SIGTERM itself, and before anything could have stopped it cleanly), leaves no
    // mount and no loop device: its keeper is already there. SIGKILL, then SIGTERM.
    void aServerKilledWhileStartingLeavesNothingMounted_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGKILL") << int(SIGKILL);
        QTest::newRow("SIGTERM") << int(SIGTERM);
    }

    void aServerKilledWhileStartingLeavesNothingMounted()
    {
        if (m_server.runsAsOtherUser())
            QSKIP("lizard-local runs as an ordinary user: it mounts no disk images");
        QFETCH(int, signal);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString data = QFileInfo(tmp.path()).canonicalFilePath() + "/data";
        const QString disks = data + "/disks";
        QProcess server;
        server.setProcessChannelMode(QProcess::MergedChannels);
        server.start(LocalServer::serverBinary(), {"--data-dir", data, "--port", "0"});
        QVERIFY(server.waitForStarted());
        auto leftovers = [&] { return mountsUnder(disks) + loopDevicesOn(disks + "/"); };
        auto cleanup = qScopeGuard([&] {
            if (server.state() != QProcess::NotRunning) {
                server.kill();
                server.waitForFinished();
            }
            for (const QString& point : mountsUnder(disks))
                ::umount2(qPrintable(point), MNT_DETACH); // a failed run leaves the host clean
            waitUntilUnused(data);
        });
        bool mounted = false;
        for (QDeadlineTimer deadline(30000);
             !mounted && !deadline.hasExpired() && server.state() == QProcess::Running;) {
            mounted = mountsUnder(disks + "/.pool").size() >= 2; // the pool and a disk in it
            if (!mounted)
                QTest::qWait(5);
        }
        if (!mounted)
            QSKIP(qPrintable("no disk of the pool was mounted within 30 s (disks are not images "
                             "here?): " +
                             QString::fromUtf8(server.readAll().right(2000))));
        QVERIFY(::kill(pid_t(server.processId()), signal) == 0);
        QVERIFY(server.waitForFinished(10000));
        // Either way nothing may be left: killed by the signal, or (SIGTERM on a host slow
        // enough that the server's own handler came first) a clean stop.
        qInfo().noquote() << "the server"
                          << (server.exitStatus() == QProcess::CrashExit ? "died of the signal"
                                                                         : "stopped cleanly");
        QStringList left = leftovers();
        for (QDeadlineTimer deadline(10000); !left.isEmpty() && !deadline.hasExpired();) {
            QTest::qWait(100);
            left = leftovers();
        }
        QVERIFY2(left.isEmpty(), qPrintable("left on the host: " + left.join(", ")));
    }
};

QTEST_GUILESS_MAIN(TestOrphans)
#include "tst_orphans.moc"
