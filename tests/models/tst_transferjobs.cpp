// Upload and download jobs against a real lizard-local: a folder tree (nested, empty folders,
// binary files, odd names) goes up and comes back down as a folder with equal bytes; cancel
// stops a job and cleans up; an existing local folder is never overwritten. The jobs model is
// checked with QAbstractItemModelTester.
#include "models/files/downloadjob.h"
#include "models/files/transferjobsmodel.h"
#include "models/files/uploadjob.h"
#include "support/sandboxfixture.h"

#include <QAbstractItemModelTester>
#include <QDirIterator>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lizard;
using lizard::test::ApiWaiter;
using models::files::DownloadJob;
using models::files::TransferJob;
using models::files::TransferJobsModel;
using models::files::UploadJob;

namespace {

QByteArray randomBytes(qsizetype n, quint32 seed)
{
    QByteArray b(n, Qt::Uninitialized);
    QRandomGenerator rng(seed);
    for (auto& c : b)
        c = char(rng.bounded(256));
    return b;
}

bool writeLocal(const QString& path, const QByteArray& content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
}

// Relative path -> content ("<dir>" for folders), symlinks left out.
QMap<QString, QByteArray> snapshot(const QString& root)
{
    QMap<QString, QByteArray> out;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo fi = it.nextFileInfo();
        if (fi.isSymLink())
            continue;
        const QString rel = QDir(root).relativeFilePath(fi.filePath());
        if (fi.isDir()) {
            out.insert(rel, "<dir>");
        } else {
            QFile f(fi.filePath());
            out.insert(rel, f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>"));
        }
    }
    return out;
}

bool runJob(TransferJob* job, int timeoutMs = 120000)
{
    QSignalSpy done(job, &TransferJob::finished);
    job->start();
    return done.count() > 0 || done.wait(timeoutMs);
}

} // namespace

class TestTransferJobs : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase() { m_fx.stop(); }
    void cleanup() { m_fx.reportIfFailed(); }

    void folderRoundTrip();
    void fileUploadAndDownload();
    void existingLocalFolderIsKept();
    void linkedFolderDownloadsAsFolder();
    void missingRemoteFolderFails();
    void cancelUpload();
    void cancelFolderDownloadWhilePacking();
    void jobsModel();

private:
    QString remoteLs(const QString& pattern);

    lizard::test::SandboxFixture m_fx;
    QTemporaryDir m_tmp;
};

void TestTransferJobs::initTestCase()
{
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
}

QString TestTransferJobs::remoteLs(const QString& pattern)
{
    ApiWaiter<client::ExecResult> r;
    m_fx.api().exec(m_fx.sandboxId(), "ls -d " + pattern + " 2>/dev/null; true", {}, nullptr,
                    r.done());
    return r.wait() && r.ok() ? r.value().stdoutText.trimmed()
                              : QString("<failed: %1>").arg(QString(r.why()));
}

void TestTransferJobs::folderRoundTrip()
{
    const QString src = m_tmp.filePath("project");
    QVERIFY(writeLocal(src + "/README.md", "# hello\n"));
    QVERIFY(writeLocal(src + "/data/blob.bin", randomBytes(2 << 20, 7)));
    QVERIFY(writeLocal(src + "/data/deeper/still/x.bin", randomBytes(70001, 8)));
    QVERIFY(writeLocal(src + "/name with spaces & ünïcode.txt", "odd names work\n"));
    QVERIFY(writeLocal(src + "/.hidden", "dotfile"));
    QVERIFY(writeLocal(src + "/empty.txt", ""));
    QVERIFY(QDir().mkpath(src + "/empty-folder"));
    QVERIFY(QFile::link(src + "/README.md", src + "/link-to-readme"));
    const auto before = snapshot(src);

    UploadJob up(&m_fx.api(), m_fx.sandboxId(), src, "/home/user/uploads");
    QCOMPARE(up.remoteTarget(), QString("/home/user/uploads/project"));
    QVERIFY(runJob(&up));
    QCOMPARE(up.state(), TransferJob::State::Done);
    QVERIFY2(up.message().contains("1 link"), qPrintable(up.message())); // the symlink was skipped
    QCOMPARE(up.bytesDone(), up.bytesTotal());
    QCOMPARE(up.bytesTotal(), qint64((2 << 20) + 70001 + 8 + 15 + 7));
    QCOMPARE(up.changedRemoteDir(), QString("/home/user/uploads"));

    ApiWaiter<QByteArray> blob;
    m_fx.api().readFile(m_fx.sandboxId(), "/home/user/uploads/project/data/blob.bin", nullptr,
                        blob.done());
    LIZ_AWAIT_OK(blob);
    QVERIFY(blob.value() == randomBytes(2 << 20, 7));

    const QString back = m_tmp.filePath("downloads/project-copy");
    QVERIFY(QDir().mkpath(m_tmp.filePath("downloads")));
    DownloadJob down(&m_fx.api(), m_fx.sandboxId(), "/home/user/uploads/project", true, back);
    QVERIFY(runJob(&down));
    QVERIFY2(down.state() == TransferJob::State::Done, qPrintable(down.message()));
    QVERIFY(down.bytesTotal() > 2 << 20); // the archive's size
    const auto after = snapshot(back);
    QCOMPARE(after.keys(), before.keys());
    QVERIFY(after == before);
    // Only the folder arrived: no staging folder is left next to it, no archive in the sandbox.
    QCOMPARE(QDir(m_tmp.filePath("downloads"))
                 .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList{"project-copy"});
    QTRY_COMPARE_WITH_TIMEOUT(remoteLs("/tmp/.lizard-download-*"), QString(), 10000);
}

void TestTransferJobs::fileUploadAndDownload()
{
    const QByteArray content = randomBytes(300000, 11);
    const QString local = m_tmp.filePath("single.bin");
    QVERIFY(writeLocal(local, content));
    UploadJob up(&m_fx.api(), m_fx.sandboxId(), local, "/home/user/single");
    QVERIFY(runJob(&up));
    QVERIFY2(up.state() == TransferJob::State::Done, qPrintable(up.message()));
    QCOMPARE(up.remoteTarget(), QString("/home/user/single/single.bin"));

    const QString target = m_tmp.filePath("single-back.bin");
    DownloadJob down(&m_fx.api(), m_fx.sandboxId(), up.remoteTarget(), false, target);
    QVERIFY(runJob(&down));
    QVERIFY2(down.state() == TransferJob::State::Done, qPrintable(down.message()));
    QCOMPARE(down.bytesDone(), qint64(content.size()));
    QFile f(target);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll() == content);
}

void TestTransferJobs::existingLocalFolderIsKept()
{
    const QString target = m_tmp.filePath("exists");
    QVERIFY(writeLocal(target + "/mine.txt", "keep"));
    DownloadJob down(&m_fx.api(), m_fx.sandboxId(), "/home/user/uploads/project", true, target);
    QVERIFY(runJob(&down));
    QCOMPARE(down.state(), TransferJob::State::Failed);
    QVERIFY2(down.message().contains("already exists"), qPrintable(down.message()));
    QCOMPARE(snapshot(target).keys(), QStringList{"mine.txt"});
}

void TestTransferJobs::linkedFolderDownloadsAsFolder()
{
    ApiWaiter<client::ExecResult> made;
    m_fx.api().exec(m_fx.sandboxId(),
                    "mkdir -p /home/user/realdir/sub && printf abc > /home/user/realdir/sub/f && "
                    "ln -sfn /home/user/realdir /home/user/linkdir",
                    {}, nullptr, made.done());
    LIZ_AWAIT_OK(made);
    QCOMPARE(made.value().exitCode, 0);
    const QString target = m_tmp.filePath("linked-copy");
    DownloadJob down(&m_fx.api(), m_fx.sandboxId(), "/home/user/linkdir", true, target);
    QVERIFY(runJob(&down));
    QVERIFY2(down.state() == TransferJob::State::Done, qPrintable(down.message()));
    QVERIFY(!QFileInfo(target).isSymLink()); // the folder it leads to, not the link
    QCOMPARE(snapshot(target).keys(), QStringList({"sub", "sub/f"}));
    QFile f(target + "/sub/f");
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("abc"));
}

void TestTransferJobs::missingRemoteFolderFails()
{
    DownloadJob down(&m_fx.api(), m_fx.sandboxId(), "/home/user/no-such-folder", true,
                     m_tmp.filePath("nothing"));
    QVERIFY(runJob(&down));
    QCOMPARE(down.state(), TransferJob::State::Failed);
    QVERIFY2(down.message().contains("no-such-folder"), qPrintable(down.message()));
    QVERIFY(!QFileInfo::exists(m_tmp.filePath("nothing")));
    QCOMPARE(QDir(m_tmp.path()).entryList({".lizard-download-*"}, QDir::AllEntries | QDir::Hidden),
             QStringList());
    QTRY_COMPARE_WITH_TIMEOUT(remoteLs("/tmp/.lizard-download-*"), QString(), 10000);
}

void TestTransferJobs::cancelUpload()
{
    const QString local = m_tmp.filePath("huge.bin");
    QVERIFY(writeLocal(local, randomBytes(48 << 20, 3)));
    UploadJob up(&m_fx.api(), m_fx.sandboxId(), local, "/home/user/cancelled");
    QSignalSpy finished(&up, &TransferJob::finished);
    connect(&up, &TransferJob::progressChanged, &up, [&up] {
        if (up.bytesDone() > 0)
            up.cancel();
    });
    up.start();
    QVERIFY(finished.wait(60000));
    QCOMPARE(up.state(), TransferJob::State::Cancelled);
    QTest::qWait(300);
    QCOMPARE(finished.count(), 1);
    ApiWaiter<client::FileEntry> st;
    m_fx.api().statFile(m_fx.sandboxId(), "/home/user/cancelled/huge.bin", nullptr, st.done());
    QVERIFY(st.wait());
    QCOMPARE(st.error().kind, client::ApiError::Kind::NotFound); // a cut upload writes nothing
}

void TestTransferJobs::cancelFolderDownloadWhilePacking()
{
    // Enough to keep the sandbox's tar busy for a while after the cancel.
    ApiWaiter<client::ExecResult> made;
    m_fx.api().exec(
        m_fx.sandboxId(),
        "mkdir -p /home/user/bulky && for i in 1 2 3 4; do head -c 100000000 /dev/zero > "
        "/home/user/bulky/part$i; done",
        {}, nullptr, made.done());
    LIZ_AWAIT_OK(made);
    QCOMPARE(made.value().exitCode, 0);
    const QString target = m_tmp.filePath("bulky-copy");
    DownloadJob down(&m_fx.api(), m_fx.sandboxId(), "/home/user/bulky", true, target);
    QSignalSpy finished(&down, &TransferJob::finished);
    down.start();
    QTest::qWait(150); // the tar exec is under way
    down.cancel();
    QCOMPARE(down.state(), TransferJob::State::Cancelled);
    QVERIFY(!QFileInfo::exists(target));
    // No tar left running (lizard-local ends a command whose caller hung up) and no archive
    // left behind in the sandbox.
    QTRY_COMPARE_WITH_TIMEOUT(remoteLs("/tmp/.lizard-download-*"), QString(), 20000);
    ApiWaiter<client::ExecResult> tars;
    m_fx.api().exec(m_fx.sandboxId(), "pgrep -f '^tar -C /home/user/bulky' || true", {}, nullptr,
                    tars.done());
    LIZ_AWAIT_OK(tars);
    QCOMPARE(tars.value().stdoutText, QString());
    QTest::qWait(1000); // and none appears later
    QCOMPARE(remoteLs("/tmp/.lizard-download-*"), QString());
}

void TestTransferJobs::jobsModel()
{
    TransferJobsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QString local = m_tmp.filePath("m.txt");
    QVERIFY(writeLocal(local, "model"));
    QSignalSpy finished(&model, &TransferJobsModel::jobFinished);
    model.addJob(new UploadJob(&m_fx.api(), m_fx.sandboxId(), local, "/home/user/m"));
    model.addJob(new DownloadJob(&m_fx.api(), m_fx.sandboxId(), "/home/user/nope.txt", false,
                                 m_tmp.filePath("n")));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.runningCount(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
    QCOMPARE(model.runningCount(), 0);
    QCOMPARE(model.index(0, TransferJobsModel::StateColumn).data().toString(), QString("Done"));
    QCOMPARE(model.index(0, TransferJobsModel::ProgressColumn)
                 .data(TransferJobsModel::ProgressRole)
                 .toInt(),
             100);
    QVERIFY(model.index(1, TransferJobsModel::StateColumn).data().toString().contains("404"));
    QVERIFY(model.index(0, TransferJobsModel::TitleColumn).data().toString().contains("m.txt"));
    model.clearFinished();
    QCOMPARE(model.rowCount(), 0);
}

QTEST_GUILESS_MAIN(TestTransferJobs)
#include "tst_transferjobs.moc"
