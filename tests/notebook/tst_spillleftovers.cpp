// Spill files of an app that crashed: they stay in the temp folder (nothing ran to remove them),
// and the next start removes them, but never those of an app that still runs. The "apps" are
// this test binary started again as a child that spills a big output and then dies by SIGKILL
// (a crash) or waits (a running app).

#include "notebook/spillfile.h"
#include "support/wait.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

using namespace lizard::notebook;

namespace {

// The child: spills 1 MiB, prints its spill folder, then crashes or waits for stdin to close.
int runChild(bool crash)
{
    QString error;
    std::shared_ptr<SpillFile> file = SpillFile::create(&error);
    if (!file || !file->append(QByteArray(1 << 20, 'x'), &error)) {
        std::fprintf(stderr, "spill failed: %s\n", qPrintable(error));
        return 2;
    }
    std::printf("%s\n", qPrintable(SpillFile::directory()));
    std::fflush(stdout);
    if (crash)
        ::kill(::getpid(), SIGKILL); // no destructor, no atexit: what a crash leaves
    char c;
    while (::read(0, &c, 1) > 0) {
    }
    return 0;
}

} // namespace

class TestSpillLeftovers : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void crashedAppsFilesGo();
    void runningAppsFilesStay();
    void reusedPidAndForeignFoldersAreJudgedByName();

private:
    // Starts a child app in m_tmp; returns its spill folder (empty on failure).
    QString startChild(QProcess& child, bool crash)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TMPDIR"), m_tmp.path());
        child.setProcessEnvironment(env);
        child.start(
            QCoreApplication::applicationFilePath(),
            {crash ? QStringLiteral("--spill-and-crash") : QStringLiteral("--spill-and-wait")});
        if (!child.waitForStarted(10000))
            return {};
        lizard::test::waitUntil(
            [&child] { return child.canReadLine() || child.state() == QProcess::NotRunning; },
            30000);
        return QString::fromUtf8(child.readLine()).trimmed();
    }

    QTemporaryDir m_tmp;
};

void TestSpillLeftovers::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    // This process's own folder lives there too, so every case checks that it stays.
    qputenv("TMPDIR", m_tmp.path().toLocal8Bit());
    QVERIFY(SpillFile::directory().startsWith(m_tmp.path()));
}

void TestSpillLeftovers::crashedAppsFilesGo()
{
    QProcess child;
    const QString dir = startChild(child, true);
    QVERIFY2(dir.startsWith(m_tmp.path()), qPrintable(child.readAllStandardError()));
    // It may have died while its line was awaited (the event loop ran meanwhile).
    QVERIFY(child.state() == QProcess::NotRunning || child.waitForFinished(10000));
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);
    const QStringList files = QDir(dir).entryList(QDir::Files);
    QCOMPARE(files.size(), 1); // the crash left the spill file behind
    QCOMPARE(QFileInfo(dir + u'/' + files.first()).size(), qint64(1 << 20));

    QCOMPARE(SpillFile::removeLeftovers(m_tmp.path()), 1);
    QVERIFY(!QFile::exists(dir));
    QVERIFY(QFile::exists(SpillFile::directory())); // ours stays
}

void TestSpillLeftovers::runningAppsFilesStay()
{
    QProcess child;
    const QString dir = startChild(child, false);
    QVERIFY2(dir.startsWith(m_tmp.path()), qPrintable(child.readAllStandardError()));
    QCOMPARE(SpillFile::removeLeftovers(m_tmp.path()), 0);
    QVERIFY(QFile::exists(dir));
    QCOMPARE(QDir(dir).entryList(QDir::Files).size(), 1);

    child.kill(); // SIGKILL: it crashes after all
    QVERIFY(child.waitForFinished(10000));
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);
    QCOMPARE(SpillFile::removeLeftovers(m_tmp.path()), 1);
    QVERIFY(!QFile::exists(dir));
    QVERIFY(QFile::exists(SpillFile::directory()));
}

void TestSpillLeftovers::reusedPidAndForeignFoldersAreJudgedByName()
{
    // A live pid (ours) with another start time: the pid was reused, its owner is gone.
    const QString reused = m_tmp.path() + QStringLiteral("/lizard-desktop-outputs-%1.1-abcdef")
                                              .arg(QCoreApplication::applicationPid());
    // Named before folders carried their owner: nothing tells whether its app runs, so it stays.
    const QString unnamed = m_tmp.path() + QStringLiteral("/lizard-desktop-outputs-Q1w2E3");
    const QString foreign = m_tmp.path() + QStringLiteral("/someone-elses-folder");
    for (const QString& d : {reused, unnamed, foreign}) {
        QVERIFY(QDir().mkpath(d));
        QFile f(d + QStringLiteral("/stream-x.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("text");
    }
    QCOMPARE(SpillFile::removeLeftovers(m_tmp.path()), 1);
    QVERIFY(!QFile::exists(reused));
    QVERIFY(QFile::exists(unnamed + QStringLiteral("/stream-x.txt")));
    QVERIFY(QFile::exists(foreign + QStringLiteral("/stream-x.txt")));
    QVERIFY(QFile::exists(SpillFile::directory()));
    // A temp folder that does not exist has nothing to remove.
    QCOMPARE(SpillFile::removeLeftovers(m_tmp.path() + QStringLiteral("/missing")), 0);
}

int main(int argc, char** argv)
{
    if (argc == 2 && (std::strcmp(argv[1], "--spill-and-crash") == 0 ||
                      std::strcmp(argv[1], "--spill-and-wait") == 0)) {
        QCoreApplication app(argc, argv);
        return runChild(std::strcmp(argv[1], "--spill-and-crash") == 0);
    }
    QCoreApplication app(argc, argv);
    TestSpillLeftovers test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_spillleftovers.moc"
