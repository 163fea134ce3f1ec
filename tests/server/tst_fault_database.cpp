// Fault: the database cannot be used at start. (a) Another process holds a write lock on it:
// lizard-local exits non-zero and names the file and the process; the file is unchanged.
// (b) The file is garbage: it exits non-zero, says the file is damaged and where it is, and
// never replaces it (same bytes after).
#include "fault_support.h"

#include <QCryptographicHash>
#include <QStandardPaths>

using namespace lizard::test;

class TestFaultDatabase : public QObject
{
    Q_OBJECT

    LocalServer m_server;

    QString db() const { return m_server.dataDir() + "/lizard.db"; }

    static QByteArray digest(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly)
                   ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256)
                   : QByteArray();
    }

    // Runs lizard-local on the fixture's data dir until it exits; its exit code and output.
    int runServer(QByteArray* out)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(LocalServer::serverBinary(), {"--port", "0", "--data-dir", m_server.dataDir()});
        if (!p.waitForFinished(30000)) {
            p.kill();
            p.waitForFinished(5000);
            *out = "still running after 30 s: " + p.readAll();
            return -1;
        }
        *out = p.readAll();
        return p.exitCode();
    }

private slots:
    void initTestCase()
    {
        if (m_server.runsAsOtherUser())
            QSKIP("the suite runs lizard-local itself, as the current user");
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_server.stop(); // a database with its default project, closed
        QVERIFY(QFile::exists(db()));
    }

    void lockedByAnotherProcess()
    {
        if (QStandardPaths::findExecutable("sqlite3").isEmpty())
            QSKIP("no sqlite3 CLI to hold the lock with");
        QProcess holder;
        holder.start("sqlite3", {db()});
        QVERIFY(holder.waitForStarted(5000));
        holder.write("BEGIN EXCLUSIVE;\nSELECT 'held';\n");
        // Its output is buffered (a pipe): the kernel's list of locks tells when it holds one.
        const qint64 holderPid = holder.processId();
        const QByteArray mark = " " + QByteArray::number(holderPid) + " ";
        auto locksHeld = [&] {
            QFile locks("/proc/locks");
            return locks.open(QIODevice::ReadOnly) && locks.readAll().contains(mark);
        };
        QTRY_VERIFY_WITH_TIMEOUT(locksHeld() || holder.state() != QProcess::Running, 5000);
        QVERIFY(holder.state() == QProcess::Running);
        const QByteArray before = digest(db());
        QByteArray out;
        const int code = runServer(&out);
        holder.write(".quit\n");
        holder.closeWriteChannel();
        holder.waitForFinished(5000);
        qInfo("%s", out.trimmed().constData());
        QVERIFY2(code != 0, out.constData());
        QVERIFY2(out.contains("locked by another process") && out.contains(db().toUtf8()) &&
                     out.contains("pid " + QByteArray::number(holderPid)),
                 out.constData());
        QCOMPARE(digest(db()), before);
        // Once the holder is gone, it starts on the same data.
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QCOMPARE(jsonArray(m_server.request("GET", "/api/projects")).size(), 1);
        m_server.stop();
    }

    void garbageFile()
    {
        QFile f(db());
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QByteArray garbage;
        for (int i = 0; i < 8192; ++i)
            garbage += char((i * 7919) % 251);
        f.write(garbage);
        f.close();
        QFile::remove(db() + "-wal");
        QFile::remove(db() + "-shm");
        QByteArray out;
        const int code = runServer(&out);
        qInfo("%s", out.trimmed().constData());
        QVERIFY2(code != 0, out.constData());
        QVERIFY2(out.contains("is damaged") && out.contains(db().toUtf8()), out.constData());
        QCOMPARE(digest(db()), QCryptographicHash::hash(garbage, QCryptographicHash::Sha256));
    }
};

QTEST_GUILESS_MAIN(TestFaultDatabase)
#include "tst_fault_database.moc"
