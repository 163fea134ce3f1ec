// GET /api/sandboxes/{id}/changes/archive and .../changes/original?against=snap_… on a real
// lizard-local: the changes as a tar in the form of an image layer (what GNU tar reads back:
// files with their bytes, owners and modes, directories, links, FIFOs, long names, deletions as
// .wh. files, exclusions, a paused sandbox), a client that leaves in the middle ending the
// tool, and a snapshot's version of a file (changed since, deleted, a link, absent).
#include "lifecycle_support.h"

#include <QDir>
#include <QMap>
#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::SandboxApi;

namespace {

// GNU tar's verbose listing of an archive: one line per entry ("mode uid/gid size date time
// name [-> target]").
QStringList tarListing(const QByteArray& archive, QString* error)
{
    QProcess tar;
    tar.start(QStringLiteral("tar"), {"--numeric-owner", "-tvf", "-"});
    tar.write(archive);
    tar.closeWriteChannel();
    if (!tar.waitForFinished(60000) || tar.exitCode() != 0) {
        *error = QString::fromUtf8(tar.readAllStandardError());
        return {};
    }
    return QString::fromUtf8(tar.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
}

QByteArray tarMember(const QByteArray& archive, const QString& name)
{
    QProcess tar;
    tar.start(QStringLiteral("tar"), {"-xOf", "-", name});
    tar.write(archive);
    tar.closeWriteChannel();
    tar.waitForFinished(60000);
    return tar.readAllStandardOutput();
}

// The line of `name` in a listing ("" if none).
QString entry(const QStringList& listing, const QString& name)
{
    for (const QString& line : listing) {
        if (line.endsWith(" " + name) || line.contains(" " + name + " -> "))
            return line;
    }
    return {};
}

// The lizard-agent `changes` tools lizard-local runs now, and their children (the walk in the
// sandbox's user namespace).
int changesTools(qint64 serverPid)
{
    QMap<qint64, qint64> parentOf;
    QList<qint64> tools;
    for (const QString& name : QDir("/proc").entryList(QDir::Dirs)) {
        const qint64 pid = name.toLongLong();
        QFile stat("/proc/" + name + "/stat"), cmd("/proc/" + name + "/cmdline");
        if (pid <= 0 || !stat.open(QIODevice::ReadOnly) || !cmd.open(QIODevice::ReadOnly))
            continue;
        const QByteArray s = stat.readAll();
        const QList<QByteArray> f = s.mid(s.lastIndexOf(')') + 2).split(' ');
        parentOf[pid] = f.size() > 1 ? f[1].toLongLong() : 0;
        if (cmd.readAll().contains(QByteArray("lizard-agent\0changes", 20)))
            tools << pid;
    }
    int n = 0;
    for (const qint64 pid : tools) {
        const qint64 parent = parentOf.value(pid);
        n += parent == serverPid || parentOf.value(parent) == serverPid;
    }
    return n;
}

} // namespace

class TestApiChangesArchive : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    SandboxApi m_api{m_server};
    QString m_id;
    const QString m_long = "/root/deep/" + QString(60, 'd') + "/" + QString(120, 'n') + ".txt";

    QByteArray archive(const QString& query = {})
    {
        const auto r =
            m_server.request("GET", "/api/sandboxes/" + m_id + "/changes/archive" + query);
        if (r.status != 200 || r.contentType != "application/x-tar")
            qWarning("archive: %s", qPrintable(describe(r)));
        return r.status == 200 ? r.body : QByteArray();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        const auto r = m_server.request("POST", "/api/sandboxes", "{}");
        LIZ_REQUIRE_CREATED(r);
        m_id = jsonObject(r).value("sandboxId").toString();
        const QString script =
            "set -e\n"
            "echo hello > /root/new.txt\n"
            "echo mine > /home/user/owned && chown 1000:1000 /home/user/owned\n"
            "chmod 640 /home/user/owned\n"
            "echo changed >> /etc/debian_version\n"
            "rm /etc/issue\n"
            "rm -r /etc/apt/apt.conf.d\n"
            "ln -s /etc/hostname /root/link\n"
            "mkfifo /root/fifo\n"
            "mkdir -p /root/app/__pycache__ && echo c > /root/app/__pycache__/m.pyc\n"
            "mkdir -p $(dirname " +
            m_long + ") && echo long > " + m_long +
            "\n"
            "head -c 3000000 /dev/urandom > /root/big.bin\n";
        QCOMPARE(m_api.run(m_id, "sh -c '" + script + "' && echo done"), QStringLiteral("done\n"));
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_api.kill(m_id);
    }

    void theArchiveHoldsEachChange()
    {
        const QByteArray tar = archive();
        QVERIFY(!tar.isEmpty());
        QString error;
        const QStringList listing = tarListing(tar, &error);
        QVERIFY2(!listing.isEmpty(), qPrintable(error));
        const auto has = [&](const QString& name, const QString& start) {
            const QString line = entry(listing, name);
            QVERIFY2(line.startsWith(start), qPrintable(name + ": " + listing.join('\n')));
        };
        has("root/new.txt", "-rw-r--r-- 0/0");
        has("home/user/owned", "-rw-r----- 1000/1000"); // owners as the sandbox sees them
        has("etc/debian_version", "-rw-r--r-- 0/0");
        has("etc/.wh.issue", "-");          // a deleted file
        has("etc/apt/.wh.apt.conf.d", "-"); // a deleted folder: one mark
        has("root/link", "lrwxrwxrwx 0/0"); // a link, as a link
        QVERIFY(entry(listing, "root/link").endsWith("-> /etc/hostname"));
        has("root/fifo", "prw-r--r--");
        has("root/app/__pycache__/", "drwxr-xr-x");
        has(m_long.mid(1), "-rw-r--r--"); // past ustar's 100 characters: a pax record
        QCOMPARE(tarMember(tar, "root/new.txt"), QByteArray("hello\n"));
        QCOMPARE(tarMember(tar, m_long.mid(1)), QByteArray("long\n"));
        QCOMPARE(tarMember(tar, "root/big.bin"), m_api.read(m_id, "/root/big.bin").body);
        QCOMPARE(tarMember(tar, "etc/debian_version"),
                 m_api.read(m_id, "/etc/debian_version").body);
        // Folders only copied up for what changed below them are no entry.
        QVERIFY2(entry(listing, "etc/").isEmpty() && entry(listing, "root/").isEmpty(),
                 qPrintable(listing.join('\n')));
    }

    void exclusionsAreLeftOut()
    {
        QString error;
        const QStringList listing = tarListing(archive("?exclude=__pycache__"), &error);
        QVERIFY2(!listing.isEmpty(), qPrintable(error));
        QVERIFY2(!listing.join('\n').contains("__pycache__"), qPrintable(listing.join('\n')));
        QVERIFY(!entry(listing, "root/new.txt").isEmpty()); // control
    }

    void aPausedSandboxArchivesToo()
    {
        QCOMPARE(m_api.post(m_id, "pause"), 204);
        const QByteArray tar = archive();
        QCOMPARE(m_api.post(m_id, "resume"), 204);
        QCOMPARE(tarMember(tar, "root/new.txt"), QByteArray("hello\n"));
    }

    // A client that stops reading and goes away ends the tool that makes the archive; the
    // server answers the next call as before.
    void aClientThatLeavesEndsTheArchive()
    {
        QVERIFY(m_api.run(m_id, "head -c 200000000 /dev/zero > /root/huge.bin && echo ok") ==
                "ok\n");
        const qint64 server = m_server.serverPid();
        QVERIFY(server > 0);
        QTcpSocket socket;
        socket.connectToHost(QStringLiteral("127.0.0.1"), quint16(m_server.port()));
        QVERIFY(socket.waitForConnected(5000));
        socket.write("GET /api/sandboxes/" + m_id.toUtf8() +
                     "/changes/archive HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: " +
                     m_server.apiKey().toUtf8() + "\r\n\r\n");
        QByteArray got;
        while (got.size() < 1024 * 1024 && socket.waitForReadyRead(30000))
            got += socket.readAll();
        QVERIFY2(got.startsWith("HTTP/1.1 200"), got.left(200).constData());
        QCOMPARE(changesTools(server), 2); // the tool and its walk, held by the client
        socket.abort();
        QTRY_COMPARE_WITH_TIMEOUT(changesTools(server), 0, 15000);
        QCOMPARE(m_api.run(m_id, "rm /root/huge.bin && echo ok"), QStringLiteral("ok\n"));
        QCOMPARE(tarMember(archive(), "root/new.txt"), QByteArray("hello\n")); // control
    }

    void aSnapshotsVersionOfAFile()
    {
        QCOMPARE(m_api.run(m_id, "echo before > /root/snapped && echo gone > /root/later-gone "
                                 "&& echo ok"),
                 QStringLiteral("ok\n"));
        const auto s = m_server.request("POST", "/api/sandboxes/" + m_id + "/snapshot",
                                        "{\"name\":\"versions\"}");
        QCOMPARE(s.status, 200);
        const QString snap = jsonObject(s).value("id").toString();
        QTRY_VERIFY_WITH_TIMEOUT(
            jsonObject(m_server.request("GET", "/api/sandbox-snapshots/" + snap))
                    .value("status")
                    .toString() == "ready",
            60000);
        QCOMPARE(m_api.run(m_id, "echo after > /root/snapped && rm /root/later-gone && echo ok"),
                 QStringLiteral("ok\n"));
        const auto original = [&](const QString& path) {
            return m_server.request("GET", "/api/sandboxes/" + m_id + "/changes/original?against=" +
                                               snap + "&path=" + path);
        };
        const auto snapped = original("/root/snapped");
        QCOMPARE(snapped.status, 200);
        QCOMPARE(snapped.body, QByteArray("before\n"));
        QCOMPARE(original("/root/later-gone").body, QByteArray("gone\n")); // deleted since
        QCOMPARE(original("/etc/issue").status, 404); // deleted before the snapshot
        QVERIFY(isError(original("/etc/issue"), 404, "NOT_FOUND"));
        QVERIFY(isError(original("/root/link"), 400, "NOT_A_FILE"));
        QVERIFY(isError(original("/root/nothing-here"), 404, "NOT_FOUND"));
        // A template file the sandbox never touched reads through the snapshot's layer.
        const auto passwd = original("/etc/passwd");
        QCOMPARE(passwd.status, 200);
        QCOMPARE(passwd.body, m_api.read(m_id, "/etc/passwd").body);
        // The template's version is still the default.
        QCOMPARE(
            m_server
                .request("GET", "/api/sandboxes/" + m_id + "/changes/original?path=/root/snapped")
                .status,
            404);
        m_server.request("DELETE", "/api/sandbox-snapshots/" + snap);
    }

    void errorsAreClear()
    {
        const QString base = "/api/sandboxes/" + m_id + "/changes/archive";
        QVERIFY(isError(m_server.request("GET", base + "?format=patch"), 400, "INVALID_ARGUMENT"));
        QVERIFY(
            isError(m_server.request("GET", base + "?against=sb_other"), 400, "INVALID_ARGUMENT"));
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/sb_nosuchsandbox0/changes/archive"),
                        404, "NOT_FOUND"));
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/" + m_id +
                                                    "/changes/original?path=/x&against=snap_nope"),
                        404, "NOT_FOUND"));
    }
};

QTEST_GUILESS_MAIN(TestApiChangesArchive)
#include "tst_api_changesarchive.moc"
