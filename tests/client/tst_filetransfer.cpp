// Streaming uploads and downloads (LizardApi::uploadFile / downloadFile / makeDir) against a
// real lizard-local: equal bytes both ways, progress, cancel, and clear errors that lose nothing.
#include "support/apiwait.h"
#include "support/sandboxfixture.h"

#include <QCryptographicHash>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace lizard;
using client::ApiError;
using lizard::test::ApiWaiter;

namespace {

QByteArray randomBytes(qsizetype n)
{
    QByteArray b(n, Qt::Uninitialized);
    QRandomGenerator rng(quint32(n) * 2654435761u);
    for (auto& c : b)
        c = char(rng.bounded(256));
    return b;
}

bool writeLocal(const QString& path, const QByteArray& content)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
}

QByteArray readLocal(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

} // namespace

class TestFileTransfer : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase() { m_fx.stop(); }
    void cleanup() { m_fx.reportIfFailed(); }

    void roundTrip_data();
    void roundTrip();
    void uploadMissingLocalFile();
    void downloadMissingRemoteKeepsLocalFile();
    void cancelUpload();
    void cancelDownload();
    void makeDir();

private:
    lizard::test::SandboxFixture m_fx;
    QTemporaryDir m_tmp;
};

void TestFileTransfer::initTestCase()
{
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
}

void TestFileTransfer::roundTrip_data()
{
    QTest::addColumn<int>("size");
    QTest::newRow("empty") << 0;
    QTest::newRow("one byte") << 1;
    QTest::newRow("64 KiB + 1") << 65537;
    QTest::newRow("3 MiB + 2") << (3 << 20) + 2;
}

void TestFileTransfer::roundTrip()
{
    QFETCH(int, size);
    const QByteArray content = randomBytes(size);
    const QString local = m_tmp.filePath(QStringLiteral("up-%1.bin").arg(size));
    QVERIFY(writeLocal(local, content));
    const QString remote = QStringLiteral("/home/user/transfer dir/up %1.bin").arg(size);

    QList<qint64> progress;
    QSet<qint64> totals;
    ApiWaiter<qint64> up;
    m_fx.api().uploadFile(
        m_fx.sandboxId(), local, remote, nullptr,
        [&](qint64 bytes, qint64 total) {
            progress.append(bytes);
            totals.insert(total);
        },
        up.done());
    LIZ_AWAIT_OK(up);
    QCOMPARE(up.value(), qint64(size));
    for (qsizetype i = 1; i < progress.size(); ++i)
        QVERIFY(progress[i] > progress[i - 1]);
    if (size > 0) {
        QCOMPARE(progress.last(), qint64(size));
        QCOMPARE(totals, QSet<qint64>{qint64(size)});
    }

    // The bytes in the sandbox, read by the plain API call.
    ApiWaiter<QByteArray> read;
    m_fx.api().readFile(m_fx.sandboxId(), remote, nullptr, read.done());
    LIZ_AWAIT_OK(read);
    QCOMPARE(read.value().size(), content.size());
    QVERIFY(read.value() == content);

    // And back down through the streaming download.
    const QString back = m_tmp.filePath(QStringLiteral("down-%1.bin").arg(size));
    qint64 lastBytes = -1, lastTotal = -1;
    ApiWaiter<qint64> down;
    m_fx.api().downloadFile(
        m_fx.sandboxId(), remote, back, nullptr,
        [&](qint64 bytes, qint64 total) {
            lastBytes = bytes;
            lastTotal = total;
        },
        down.done());
    LIZ_AWAIT_OK(down);
    QCOMPARE(down.value(), qint64(size));
    if (size > 0) {
        QCOMPARE(lastBytes, qint64(size));
        QCOMPARE(lastTotal, qint64(size));
    }
    const QByteArray got = readLocal(back);
    QCOMPARE(QCryptographicHash::hash(got, QCryptographicHash::Sha256),
             QCryptographicHash::hash(content, QCryptographicHash::Sha256));
}

void TestFileTransfer::uploadMissingLocalFile()
{
    const QString missing = m_tmp.filePath(QStringLiteral("not-there.bin"));
    ApiWaiter<qint64> up;
    m_fx.api().uploadFile(m_fx.sandboxId(), missing, QStringLiteral("/home/user/never.bin"),
                          nullptr, {}, up.done());
    QVERIFY(up.wait());
    QVERIFY(!up.ok());
    QCOMPARE(up.error().kind, ApiError::Kind::InvalidRequest);
    QVERIFY2(up.error().message.contains(missing), qPrintable(up.error().message));

    ApiWaiter<client::FileEntry> stat;
    m_fx.api().statFile(m_fx.sandboxId(), QStringLiteral("/home/user/never.bin"), nullptr,
                        stat.done());
    QVERIFY(stat.wait());
    QCOMPARE(stat.error().kind, ApiError::Kind::NotFound);
}

void TestFileTransfer::downloadMissingRemoteKeepsLocalFile()
{
    const QString local = m_tmp.filePath(QStringLiteral("precious.txt"));
    QVERIFY(writeLocal(local, "keep me"));
    ApiWaiter<qint64> down;
    m_fx.api().downloadFile(m_fx.sandboxId(), QStringLiteral("/home/user/no such file"), local,
                            nullptr, {}, down.done());
    QVERIFY(down.wait());
    QVERIFY(!down.ok());
    QCOMPARE(down.error().kind, ApiError::Kind::NotFound);
    QCOMPARE(readLocal(local), QByteArray("keep me"));
    QCOMPARE(
        QDir(m_tmp.path()).entryList({QStringLiteral("precious*")}, QDir::Files | QDir::Hidden),
        QStringList{QStringLiteral("precious.txt")}); // no temporary file left behind
}

void TestFileTransfer::cancelUpload()
{
    const QString local = m_tmp.filePath(QStringLiteral("big.bin"));
    QVERIFY(writeLocal(local, randomBytes(40 << 20)));
    ApiWaiter<qint64> up;
    client::PendingCall* call = nullptr;
    call = m_fx.api().uploadFile(
        m_fx.sandboxId(), local, QStringLiteral("/home/user/big.bin"), nullptr,
        [&call](qint64 bytes, qint64) {
            if (bytes > 0 && call)
                call->cancel();
        },
        up.done());
    QVERIFY(up.wait());
    QVERIFY(!up.ok());
    QCOMPARE(up.error().kind, ApiError::Kind::Cancelled);
}

void TestFileTransfer::cancelDownload()
{
    const QString local = m_tmp.filePath(QStringLiteral("cancelled-download.bin"));
    ApiWaiter<qint64> down;
    client::PendingCall* call = m_fx.api().downloadFile(
        m_fx.sandboxId(), QStringLiteral("/home/user/transfer dir/up 3145730.bin"), local, nullptr,
        {}, down.done());
    call->cancel();
    QVERIFY(down.wait());
    QCOMPARE(down.error().kind, ApiError::Kind::Cancelled);
    QVERIFY(!QFile::exists(local));
}

void TestFileTransfer::makeDir()
{
    ApiWaiter<client::Unit> made;
    m_fx.api().makeDir(m_fx.sandboxId(), QStringLiteral("/home/user/a/b c/d"), nullptr,
                       made.done());
    LIZ_AWAIT_OK(made);
    ApiWaiter<client::FileEntry> stat;
    m_fx.api().statFile(m_fx.sandboxId(), QStringLiteral("/home/user/a/b c/d"), nullptr,
                        stat.done());
    LIZ_AWAIT_OK(stat);
    QCOMPARE(stat.value().type, QStringLiteral("dir"));

    // Below a file: a clear error from mkdir.
    ApiWaiter<client::Unit> bad;
    m_fx.api().makeDir(m_fx.sandboxId(), QStringLiteral("/home/user/transfer dir/up 1.bin/sub"),
                       nullptr, bad.done());
    QVERIFY(bad.wait());
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error().message.contains(QStringLiteral("Not a directory")),
             qPrintable(bad.error().message));
}

QTEST_GUILESS_MAIN(TestFileTransfer)
#include "tst_filetransfer.moc"
