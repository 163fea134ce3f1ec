// Children born in a cgroup v2 group (agent/build/cgroupfork.h): on cgroup v2 the launcher
// starts a sandbox's PID 1 and slirp4netns in the sandbox's group with clone3's
// CLONE_INTO_CGROUP instead of moving itself there first. Each case checks where a child
// really started (/proc/<pid>/cgroup) beside a plain fork as the control, and which groups the
// launcher takes for a v2 group (none of v1's or a plain directory's), and that a command's
// thread moves into a threaded workload group as the sandbox's commands do. The cases need a
// writable cgroup2 mount: a root's hybrid hierarchy (/sys/fs/cgroup/unified here) or a v2
// host's; without one they say so and skip.
#include "agent/build/cgroupfork.h"

#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace agent = lizard::agent;

namespace {

// The cgroup2 mount point, from /proc/self/mountinfo; empty when there is none.
QString cgroup2Mount()
{
    QFile f("/proc/self/mountinfo");
    if (!f.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray& line : f.readAll().split('\n')) {
        const int dash = line.indexOf(" - ");
        if (dash < 0 || !line.mid(dash + 3).startsWith("cgroup2 "))
            continue;
        return QString::fromUtf8(line.split(' ').value(4));
    }
    return {};
}

// The cgroup v2 path ("0::" line) of a process.
QByteArray v2PathOf(pid_t pid)
{
    QFile f(QStringLiteral("/proc/%1/cgroup").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return "?";
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("0::"))
            return line.mid(3);
    return "?";
}

// Forks with forkInto(fd); the child reports its own cgroup v2 path and exits. Returns that
// path, or the error of the fork.
QByteArray childPath(int cgroupDirFd)
{
    int fds[2];
    if (::pipe(fds) != 0)
        return "pipe failed";
    const pid_t pid = agent::forkInto(cgroupDirFd);
    if (pid == 0) {
        ::close(fds[0]);
        const QByteArray path = v2PathOf(::getpid());
        [[maybe_unused]] auto w = ::write(fds[1], path.constData(), size_t(path.size()));
        ::_exit(0);
    }
    const int err = errno;
    ::close(fds[1]);
    if (pid < 0) {
        ::close(fds[0]);
        return "fork: " + QByteArray(std::strerror(err));
    }
    QByteArray out;
    char buf[512];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;)
        out.append(buf, int(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return out;
}

} // namespace

class TestCgroupFork : public QObject
{
    Q_OBJECT

    QString m_mount;
    QString m_group;     // a group of this test's own, below the mount
    QByteArray m_parent; // this process's v2 path

private slots:
    void initTestCase()
    {
        m_mount = cgroup2Mount();
        if (m_mount.isEmpty())
            QSKIP("no cgroup2 file system mounted on this host");
        m_parent = v2PathOf(::getpid());
        // A root's hierarchy is writable at its top; a v2 desktop delegates the group it runs in.
        const QString base = ::getuid() == 0 ? m_mount : m_mount + QString::fromUtf8(m_parent);
        m_group = base + QStringLiteral("/lizard-tst-cgroupfork-%1").arg(::getpid());
        if (!QDir().mkdir(m_group)) {
            const QByteArray why = std::strerror(errno);
            m_group.clear();
            QSKIP(qPrintable("cgroup2 at " + m_mount + " is not writable here (" + why + ")"));
        }
    }

    void cleanupTestCase()
    {
        if (!m_group.isEmpty())
            QVERIFY2(QDir().rmdir(m_group), qPrintable(m_group)); // empty again: children left
    }

    void onlyOneV2GroupIsTaken()
    {
        const std::string procs = m_group.toStdString() + "/cgroup.procs";
        const int fd = agent::openCgroupV2Dir({procs});
        QVERIFY2(fd >= 0, "the test's own cgroup2 group was not taken");
        ::close(fd);
        // Several files are v1's hierarchies; a plain directory is no cgroup; nor a wrong name.
        QCOMPARE(agent::openCgroupV2Dir({procs, procs}), -1);
        QCOMPARE(agent::openCgroupV2Dir({}), -1);
        QTemporaryDir plain;
        QVERIFY(QFile(plain.filePath("cgroup.procs")).open(QIODevice::WriteOnly));
        QCOMPARE(agent::openCgroupV2Dir({plain.filePath("cgroup.procs").toStdString()}), -1);
        QCOMPARE(agent::openCgroupV2Dir({m_group.toStdString() + "/cgroup.threads"}), -1);
        if (QFile::exists("/sys/fs/cgroup/memory/cgroup.procs")) // a v1 hierarchy
            QCOMPARE(agent::openCgroupV2Dir({"/sys/fs/cgroup/memory/cgroup.procs"}), -1);
    }

    void aChildStartsInTheGroupItWasGiven()
    {
        const int fd = agent::openCgroupV2Dir({m_group.toStdString() + "/cgroup.procs"});
        QVERIFY(fd >= 0);
        const QByteArray expected = m_group.mid(m_mount.size()).toUtf8();
        const QByteArray born = childPath(fd);
        ::close(fd);
        QCOMPARE(born, expected);
        QCOMPARE(v2PathOf(::getpid()), m_parent); // the parent did not move
    }

    void withoutAGroupItIsAPlainFork() { QCOMPARE(childPath(-1), m_parent); }

    // The v2 layout of a sandbox (runtime/cgroupmanager.h): PID 1 born in the sandbox's group,
    // the workload a threaded child that each command moves its own thread into, through a
    // descriptor opened beforehand, as the launcher opens it for PID 1.
    void aCommandsThreadMovesIntoTheThreadedWorkload()
    {
        const QString sandbox = m_group + "/sandbox";
        const QString work = sandbox + "/work";
        QVERIFY(QDir().mkpath(work));
        auto cleanup = qScopeGuard([&] {
            QDir().rmdir(work);
            QDir().rmdir(sandbox);
        });
        QFile type(work + "/cgroup.type");
        QVERIFY(type.open(QIODevice::WriteOnly));
        if (type.write("threaded") < 0 || !type.flush())
            QSKIP("this kernel has no threaded cgroups (Linux 4.14)");
        type.close();
        const int threads = ::open(qPrintable(work + "/cgroup.threads"), O_WRONLY | O_CLOEXEC);
        QVERIFY(threads >= 0);
        const int dir = agent::openCgroupV2Dir({(sandbox + "/cgroup.procs").toStdString()});
        QVERIFY(dir >= 0);
        int fds[2];
        QVERIFY(::pipe(fds) == 0);
        const pid_t pid = agent::forkInto(dir);
        if (pid == 0) {
            ::close(fds[0]);
            const pid_t command = ::fork();
            if (command == 0) {
                const bool moved = ::write(threads, "0", 1) == 1;
                const QByteArray line = "command " + (moved ? v2PathOf(::getpid()) : "refused");
                [[maybe_unused]] auto w = ::write(fds[1], line.constData(), size_t(line.size()));
                ::_exit(0);
            }
            ::waitpid(command, nullptr, 0);
            const QByteArray line = "\ninit " + v2PathOf(::getpid());
            [[maybe_unused]] auto w = ::write(fds[1], line.constData(), size_t(line.size()));
            ::_exit(0);
        }
        ::close(fds[1]);
        ::close(dir);
        ::close(threads);
        QVERIFY(pid > 0);
        QByteArray out;
        char buf[512];
        for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;)
            out.append(buf, int(n));
        ::close(fds[0]);
        ::waitpid(pid, nullptr, 0);
        const QByteArray base = sandbox.mid(m_mount.size()).toUtf8();
        QCOMPARE(out, "command " + base + "/work\ninit " + base);
    }

    void aKernelWithoutTheFlagIsRecognised()
    {
        for (int e : {ENOSYS, E2BIG, EINVAL})
            QVERIFY(agent::intoCgroupUnsupported(e));
        // A refusal of this group (no delegation) is a real error, not a reason to fall back.
        for (int e : {EACCES, EPERM, EBUSY, EOPNOTSUPP})
            QVERIFY(!agent::intoCgroupUnsupported(e));
    }
};

QTEST_GUILESS_MAIN(TestCgroupFork)
#include "tst_cgroupfork.moc"
