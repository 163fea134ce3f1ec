// The sandbox's seccomp filter exported ahead (agent/build/seccompfilter.h): lizard-local has
// `lizard-agent seccomp` build it once and passes it to every sandbox's PID 1, which loads it as
// it is; without one, PID 1 builds it. Both ways must give the same filter. Each case loads a
// filter in a forked child (a filter cannot be taken off) and reports what calls answered:
// a denied call beside an allowed control, the disk watch's refused allocation beside a hole
// punched, and a malformed program refused without any filter loaded. The escape suite
// (tst_sec_syscalls) tests the filter of a real sandbox in full.
#include "agent/build/launchconfig.h"
#include "agent/build/seccompfilter.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cerrno>
#include <fcntl.h>
#include <linux/falloc.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace agent = lizard::agent;

namespace {

// What the calls answered in a child that loaded a filter: errno of each, 0 for success, or
// -1 when loading failed (then `loadError` says why).
struct Answers
{
    int unshareUser = -1;   // unshare(CLONE_NEWUSER): denied
    int getpid = -1;        // the control
    int reserve = -1;       // fallocate() that reserves blocks: refused where the watch bounds
    int punch = -1;         // fallocate() that punches a hole: always allowed
    int filtersLoaded = -1; // the child's Seccomp field in /proc/self/status
    QString loadError;
};

int errnoOf(long rc)
{
    return rc == 0 ? 0 : errno;
}

int seccompMode()
{
    QFile f("/proc/self/status");
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("Seccomp:"))
            return line.mid(8).trimmed().toInt();
    return -1;
}

Answers loadAndProbe(bool refuseAllocation, const std::string& program, const QString& scratch)
{
    int pipeFds[2];
    if (::pipe(pipeFds) != 0)
        return {};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(pipeFds[0]);
        Answers a;
        ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        const std::string e = agent::installSandboxSeccomp(refuseAllocation, program);
        a.loadError = QString::fromStdString(e);
        a.filtersLoaded = seccompMode();
        if (e.empty()) {
            a.unshareUser = errnoOf(::unshare(CLONE_NEWUSER));
            a.getpid = ::getpid() > 0 ? 0 : errno;
            const int fd = ::open(scratch.toLocal8Bit().constData(), O_RDWR | O_CREAT, 0600);
            a.reserve = errnoOf(::fallocate(fd, 0, 0, 1 << 20));
            a.punch = errnoOf(::fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096));
            ::close(fd);
        }
        const QByteArray out = QStringLiteral("%1 %2 %3 %4 %5 %6")
                                   .arg(a.unshareUser)
                                   .arg(a.getpid)
                                   .arg(a.reserve)
                                   .arg(a.punch)
                                   .arg(a.filtersLoaded)
                                   .arg(a.loadError)
                                   .toUtf8();
        [[maybe_unused]] auto w = ::write(pipeFds[1], out.constData(), size_t(out.size()));
        ::_exit(0);
    }
    ::close(pipeFds[1]);
    QByteArray text;
    char buf[512];
    for (ssize_t n; (n = ::read(pipeFds[0], buf, sizeof buf)) > 0;)
        text.append(buf, n);
    ::close(pipeFds[0]);
    ::waitpid(pid, nullptr, 0);
    const QList<QByteArray> parts = text.split(' ');
    Answers a;
    if (parts.size() < 5)
        return a;
    a.unshareUser = parts[0].toInt();
    a.getpid = parts[1].toInt();
    a.reserve = parts[2].toInt();
    a.punch = parts[3].toInt();
    a.filtersLoaded = parts[4].toInt();
    a.loadError = QString::fromUtf8(text).section(' ', 5);
    return a;
}

} // namespace

class TestSeccompProgram : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString scratch() const { return m_dir.filePath("scratch"); }

private slots:
    void theExportIsAProgramAndTheSameEachTime()
    {
        std::string plain, again, watched;
        QCOMPARE(QString::fromStdString(agent::exportSandboxSeccomp(false, plain)), QString());
        QCOMPARE(QString::fromStdString(agent::exportSandboxSeccomp(false, again)), QString());
        QCOMPARE(QString::fromStdString(agent::exportSandboxSeccomp(true, watched)), QString());
        QVERIFY(!plain.empty());
        QCOMPARE(plain.size() % 8, size_t(0)); // whole sock_filter instructions
        QVERIFY(plain == again);
        QVERIFY(plain != watched);
        // As it travels in the launch configuration.
        QVERIFY(agent::fromHex(agent::toHex(plain)) == plain);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, agent::fromHex("0g"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, agent::fromHex("abc"));
    }

    void exportedAndBuiltFiltersAnswerAlike_data()
    {
        QTest::addColumn<bool>("refuseAllocation");
        QTest::addColumn<bool>("exported");
        QTest::newRow("plain, exported") << false << true;
        QTest::newRow("plain, built") << false << false;
        QTest::newRow("disk watch, exported") << true << true;
        QTest::newRow("disk watch, built") << true << false;
    }
    void exportedAndBuiltFiltersAnswerAlike()
    {
        QFETCH(bool, refuseAllocation);
        QFETCH(bool, exported);
        std::string program;
        if (exported)
            QCOMPARE(QString::fromStdString(agent::exportSandboxSeccomp(refuseAllocation, program)),
                     QString());
        const Answers a = loadAndProbe(refuseAllocation, program, scratch());
        QCOMPARE(a.loadError, QString());
        QCOMPARE(a.filtersLoaded, 2);
        QCOMPARE(a.unshareUser, EPERM);
        QCOMPARE(a.getpid, 0);
        QCOMPARE(a.reserve, refuseAllocation ? EOPNOTSUPP : 0);
        QCOMPARE(a.punch, 0);
    }

    void aMalformedProgramLoadsNothing()
    {
        const Answers a = loadAndProbe(false, std::string(7, '\x06'), scratch());
        QVERIFY2(a.loadError.contains("not a BPF program"), qPrintable(a.loadError));
        QCOMPARE(a.filtersLoaded, 0);
    }
};

QTEST_GUILESS_MAIN(TestSeccompProgram)
#include "tst_seccompprogram.moc"
