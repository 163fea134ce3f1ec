// Fault: the data directory's file system is full. lizard-local runs with its data directory
// on a 64 MiB tmpfs that the test fills up: create, snapshot, fork and file upload answer 507
// INSUFFICIENT_STORAGE with a message (never a 500 without one, never a 204 for an upload the
// host cannot hold); what was stored before stays readable; the SQLite database passes its
// integrity check; once the space is freed, everything works again. Needs root (mount).
#include "fault_support.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <unistd.h>

using namespace lizard::test;

namespace {

int run(const QString& program, const QStringList& args, QByteArray* out = nullptr)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForFinished(30000))
        return -1;
    if (out)
        *out = p.readAll().trimmed();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

} // namespace

class TestFaultDiskFull : public QObject
{
    Q_OBJECT

    QTemporaryDir m_mountPoint{QDir::tempPath() + "/lizard-fault-disk-XXXXXX"};
    bool m_mounted = false;
    std::unique_ptr<LocalServer> m_server;
    QString m_id;
    QString m_filler;

    QString dataDir() const { return m_mountPoint.path() + "/data"; }

    LocalServer::Response upload(const QString& path, const QByteArray& content)
    {
        return m_server->request(
            "POST", "/api/sandboxes/" + m_id + "/files",
            toJson({{"path", path}, {"content", QString::fromLatin1(content)}}));
    }

    // "ok" from SQLite's own check of the database, read-only (the server keeps it open).
    QByteArray integrity()
    {
        QByteArray out;
        run("sqlite3", {"-readonly", dataDir() + "/lizard.db", "PRAGMA integrity_check;"}, &out);
        return out;
    }

    // Writes zeros to `path` until the file system refuses; returns the bytes written.
    static qint64 fill(const QString& path)
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return 0;
        const QByteArray chunk(1 << 20, '\0');
        qint64 total = 0;
        for (qint64 n; (n = f.write(chunk)) > 0 && f.flush();)
            total += n;
        for (qint64 n; (n = f.write(chunk.left(4096))) > 0 && f.flush();) // the last pages
            total += n;
        return total;
    }

private slots:
    void initTestCase()
    {
        if (::geteuid() != 0)
            QSKIP("mounting the small file system for the data directory needs root");
        QVERIFY(m_mountPoint.isValid());
        QByteArray why;
        if (run("mount", {"-t", "tmpfs", "-o", "size=64m", "tmpfs", m_mountPoint.path()}, &why) !=
            0)
            QSKIP(qPrintable("cannot mount a tmpfs here: " + why));
        m_mounted = true;
        QVERIFY(QDir().mkpath(dataDir()));
        m_server = std::make_unique<LocalServer>();
        if (m_server->runsAsOtherUser())
            QCOMPARE(run("chown", {"-R", m_server->serverUser() + ":", m_mountPoint.path()}), 0);
        m_server->useDataDir(dataDir());
        QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
        QString whyNot;
        m_id = createSandbox(*m_server, {}, &whyNot);
        LIZ_REQUIRE_SANDBOX(m_id, whyNot);
        QCOMPARE(upload("/tmp/before.txt", "stored before").status, 204);
    }

    void fullDiskRefusesWritesClearly()
    {
        m_filler = m_mountPoint.path() + "/filler";
        const qint64 filled = fill(m_filler);
        qInfo("filler: %lld MiB", filled >> 20);
        QVERIFY(filled > 0);

        const auto create = m_server->request("POST", "/api/sandboxes", "{}");
        QVERIFY2(isError(create, 507, "INSUFFICIENT_STORAGE"), qPrintable(describe(create)));
        QVERIFY2(jsonObject(create).value("message").toString().contains(dataDir()),
                 qPrintable(describe(create)));
        const auto snap = m_server->request("POST", "/api/sandboxes/" + m_id + "/snapshot", "{}");
        QVERIFY2(isError(snap, 507, "INSUFFICIENT_STORAGE"), qPrintable(describe(snap)));
        const auto fork = m_server->request("POST", "/api/sandboxes/" + m_id + "/fork", "{}");
        QVERIFY2(isError(fork, 507, "INSUFFICIENT_STORAGE"), qPrintable(describe(fork)));
        const auto up = upload("/tmp/during.txt", QByteArray(256 * 1024, 'x'));
        QVERIFY2(isError(up, 507, "INSUFFICIENT_STORAGE"), qPrintable(describe(up)));

        // Nothing half made: one sandbox, no snapshot; what was there is still readable.
        QCOMPARE(jsonArray(m_server->request("GET", "/api/sandboxes")).size(), 1);
        QCOMPARE(jsonArray(m_server->request("GET", "/api/sandbox-snapshots")).size(), 0);
        const auto read =
            m_server->request("GET", "/api/sandboxes/" + m_id + "/files?path=/tmp/before.txt");
        QCOMPARE(read.body, QByteArray("stored before"));
        if (QStandardPaths::findExecutable("sqlite3").isEmpty())
            qInfo("no sqlite3 CLI: the database is checked by the server's next start only");
        else
            QCOMPARE(integrity(), QByteArray("ok"));
    }

    void freedSpaceWorksAgain()
    {
        QVERIFY(!m_filler.isEmpty());
        QVERIFY(QFile::remove(m_filler));
        const auto up = upload("/tmp/after.txt", QByteArray(256 * 1024, 'y'));
        QVERIFY2(up.status == 204, qPrintable(describe(up)));
        const auto read =
            m_server->request("GET", "/api/sandboxes/" + m_id + "/files?path=/tmp/after.txt");
        QCOMPARE(read.body, QByteArray(256 * 1024, 'y'));
        const auto snap = m_server->request("POST", "/api/sandboxes/" + m_id + "/snapshot", "{}");
        QVERIFY2(snap.status == 200, qPrintable(describe(snap)));
        QString why;
        const QString restored = createSandbox(
            *m_server, {{"snapshotId", jsonObject(snap).value("id").toString()}}, &why);
        QVERIFY2(!restored.isEmpty(), qPrintable(why));
        const auto back =
            m_server->request("GET", "/api/sandboxes/" + restored + "/files?path=/tmp/before.txt");
        QCOMPARE(back.body, QByteArray("stored before"));
        QCOMPARE(m_server->request("DELETE", "/api/sandboxes/" + restored).status, 204);
        if (!QStandardPaths::findExecutable("sqlite3").isEmpty())
            QCOMPARE(integrity(), QByteArray("ok"));
        // The database also opens for the next start.
        QVERIFY2(m_server->restart(), qPrintable(m_server->errorString()));
        QCOMPARE(m_server->request("GET", "/api/sandboxes/" + m_id).status, 200);
    }

    void cleanupTestCase()
    {
        if (m_server) {
            if (!m_id.isEmpty())
                m_server->request("DELETE", "/api/sandboxes/" + m_id);
            for (const QJsonValue& s : jsonArray(m_server->request("GET", "/api/sandboxes")))
                m_server->request("DELETE",
                                  "/api/sandboxes/" + s.toObject().value("sandboxId").toString());
            m_server->stop(); // unmounts its pool of disks
            if (!m_id.isEmpty())
                QTRY_VERIFY_WITH_TIMEOUT(sandboxResidue(dataDir(), m_id).isEmpty(), 5000);
            m_server.reset();
        }
        if (m_mounted) {
            // A sandbox's mount that is still going away can keep it busy for a moment.
            QByteArray why;
            bool unmounted = false;
            for (int i = 0; i < 50 && !unmounted; ++i) {
                unmounted = run("umount", {m_mountPoint.path()}, &why) == 0;
                if (!unmounted)
                    QTest::qWait(200);
            }
            QVERIFY2(unmounted, why.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestFaultDiskFull)
#include "tst_fault_diskfull.moc"
