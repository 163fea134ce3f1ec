// Escape suite: a sandbox cannot use up the host file system's inodes. Its writable layer of
// diskGb GiB holds as many files as an ext4 image of that size would (one per 16 KiB: 65536
// for 1 GiB). As root the image itself bounds them (ENOSPC), as an ordinary user with a usable
// /dev/fuse the sandbox's quota file system does (ENOSPC); otherwise the disk watch counts them
// with the bytes and, past the bound, the layer is over its size as it is for bytes
// (limits.diskOver, file writes fail with EFBIG). Control: fewer files than the bound change
// nothing.
#include "escape_support.h"

#include <QElapsedTimer>

using namespace lizard::test;

namespace {

constexpr int kInodesPerGb = 65536;

// Creates `n` empty files under `dir`; prints how many it made and the error that stopped it.
QString makeFiles(const QString& dir, int n)
{
    return QStringLiteral("import os\n"
                          "d = '%1'; os.makedirs(d, exist_ok=True); made = 0; err = 'none'\n"
                          "try:\n"
                          "    for i in range(%2):\n"
                          "        os.close(os.open(f'{d}/{i}', os.O_CREAT | os.O_WRONLY, 0o644))\n"
                          "        made += 1\n"
                          "except OSError as e:\n"
                          "    err = os.strerror(e.errno)\n"
                          "print(made, err, flush=True)\n")
        .arg(dir)
        .arg(n);
}

} // namespace

class TestSecInodes : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    SandboxApi m_api{m_server};
    QString m_id;

    QJsonObject limits() { return m_api.info(m_id).value("limits").toObject(); }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_id = createSandbox(m_server, {{"diskGb", 1}}, &why);
        QVERIFY2(!m_id.isEmpty(), qPrintable(why));
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_api.kill(m_id);
    }

    void infoShowsTheInodeBound()
    {
        const QJsonObject l = limits();
        QCOMPARE(l.value("inodes").toInteger(), kInodesPerGb);
        QVERIFY2(l.value("disk") == "image" || l.value("disk") == "quota" ||
                     l.value("disk") == "watch",
                 qPrintable(toJson(l)));
    }

    void filesUnderTheBoundChangeNothing()
    {
        // The control: fewer files than the bound.
        const auto r = runPython(m_server, m_id, makeFiles("/tmp/under", 50000), "user", 120000);
        QVERIFY2(r.exitCode == 0 && r.out.startsWith("50000 none"), qPrintable(r.describe()));
        QTest::qWait(4500); // two watch rounds
        QCOMPARE(limits().value("diskOver").toBool(), false);
        QCOMPARE(m_api.run(m_id, "echo data > /tmp/under/written && cat /tmp/under/written"),
                 QStringLiteral("data\n"));
    }

    void filesPastTheBoundAreStopped()
    {
        QElapsedTimer clock;
        clock.start();
        const auto r = runPython(m_server, m_id, makeFiles("/tmp/past", 30000), "user", 120000);
        qInfo().noquote() << "30000 more files:" << r.describe().left(200) << "in"
                          << clock.elapsed() << "ms;" << toJson(limits());
        QVERIFY2(r.httpStatus == 200, qPrintable(r.describe()));
        if (limits().value("disk") != "watch") {
            // The image or the quota file system has no inode left: ENOSPC before all of them
            // were made.
            QVERIFY2(r.out.contains("No space left on device"), qPrintable(r.describe()));
            QVERIFY(r.out.section(' ', 0, 0).toInt() < 30000);
        } else {
            QTRY_VERIFY_WITH_TIMEOUT(limits().value("diskOver").toBool(), 15000);
            const auto write = runShell(m_server, m_id, "echo more > /tmp/under/written2", "user");
            QVERIFY2(write.exitCode != 0, qPrintable(write.describe()));
        }
        QCOMPARE(m_api.status(m_id), QStringLiteral("running"));
        // Removing the files gives the room back.
        QCOMPARE(m_api.run(m_id, "rm -rf /tmp/past && echo removed"), QStringLiteral("removed\n"));
        QTRY_VERIFY_WITH_TIMEOUT(!limits().value("diskOver").toBool(), 15000);
    }
};

QTEST_GUILESS_MAIN(TestSecInodes)
#include "tst_sec_inodes.moc"
