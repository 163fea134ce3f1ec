// Escape suite: memory that no rlimit counts, and the OOM killer's choice. /dev/shm (a tmpfs,
// its pages the host's memory) has a size in both modes: writing past it fails with ENOSPC and
// the sandbox lives. Under a memory cgroup, a bomb of several processes is ended by the OOM
// killer without taking PID 1 with it (PID 1 is never its choice: oom_score_adj -1000 as root,
// the sandbox's own processes 1000), and the sandbox's log names each kill. Controls: a write
// under the bound, an exec after the bomb.
#include "limits_support.h"

#include <QFile>

using namespace lizard::test;

namespace {

// Four processes of 400 MiB each (more than nano's 1 GiB together, less than it alone), each
// an orphan at once so that PID 1 reaps it and the log can name it. Prints nothing.
const QString kFourProcessBomb =
    QStringLiteral("import os, time\n"
                   "for k in range(4):\n"
                   "    if os.fork() == 0:\n"
                   "        if os.fork() == 0:\n"
                   "            chunks = []\n"
                   "            for i in range(20):\n"
                   "                chunks.append(bytearray(b'\\x01') * (20 << 20))\n"
                   "            time.sleep(30)\n"
                   "        os._exit(0)\n"
                   "    os.wait()\n");

int readInt(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed().toInt() : 0;
}

// CAP_SYS_RESOURCE (bit 24) in this process's effective set, which a root server shares.
bool hasSysResource()
{
    QFile f("/proc/self/status");
    if (!f.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.startsWith("CapEff:"))
            return (line.mid(7).trimmed().toULongLong(nullptr, 16) >> 24) & 1;
    }
    return false;
}

} // namespace

class TestSecMemory : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    SandboxApi m_api{m_server};

    // Sandboxes left at the end go with the fixture (LocalServer ends every one).
    QString create(const QJsonObject& body)
    {
        QString why;
        const QString id = createSandbox(m_server, body, &why);
        if (id.isEmpty())
            qWarning().noquote() << "create failed:" << why;
        return id;
    }

    // The messages of the sandbox's system log (the Logs tab's stream, read once).
    QStringList logMessages(const QString& id)
    {
        const auto r =
            m_server.request("GET", "/api/sandboxes/" + id + "/logs?follow=false&tail=1000");
        QStringList out;
        for (const QByteArray& line : r.body.split('\n')) {
            if (line.startsWith("data: "))
                out << QJsonDocument::fromJson(line.mid(6)).object().value("message").toString();
        }
        return out;
    }

private slots:
    void initTestCase() { QVERIFY2(m_server.start(), qPrintable(m_server.errorString())); }

    void shmSizeIsReportedAndBadSizesAreRefused()
    {
        const QString id = create({{"size", "nano"}});
        QVERIFY(!id.isEmpty());
        QCOMPARE(m_api.info(id).value("shmMb").toInt(), 64);
        const QString df = m_api.run(id, "df -k /dev/shm | tail -1");
        QVERIFY2(df.simplified().section(' ', 1, 1).toInt() == 64 * 1024, qPrintable(df));
        for (const QJsonValue bad :
             {QJsonValue(0), QJsonValue(-1), QJsonValue(1.5), QJsonValue("64"), QJsonValue(1025)}) {
            const auto r = m_server.request("POST", "/api/sandboxes",
                                            toJson(QJsonObject{{"size", "nano"}, {"shmMb", bad}}));
            QVERIFY2(r.status == 400, qPrintable(describe(r)));
            QCOMPARE(jsonObject(r).value("code").toString(), QStringLiteral("INVALID_ARGUMENT"));
            QVERIFY2(r.body.contains("shmMb"), r.body.constData());
        }
    }

    void shmPastItsSizeGetsEnospc()
    {
        const QString id = create({{"size", "nano"}, {"shmMb", 16}});
        QVERIFY(!id.isEmpty());
        // Control: under the bound the write works.
        const auto under = runShell(m_server, id,
                                    "dd if=/dev/zero of=/dev/shm/under bs=1M count=8 2>&1 && "
                                    "rm /dev/shm/under && echo ok",
                                    "user");
        QVERIFY2(under.exitCode == 0 && under.out.contains("ok"), qPrintable(under.describe()));
        for (const QString& user : {QString(), QStringLiteral("user")}) {
            const auto r = runShell(m_server, id,
                                    "dd if=/dev/zero of=/dev/shm/fill bs=1M count=64 2>&1; "
                                    "echo status=$?; du -k /dev/shm/fill; rm -f /dev/shm/fill",
                                    user);
            qInfo().noquote() << (user.isEmpty() ? "root" : user) << r.describe().left(300);
            QVERIFY2(r.out.contains("No space left on device"), qPrintable(r.describe()));
            QVERIFY2(!r.out.contains("status=0"), qPrintable(r.describe()));
            const int heldKb = r.out.section("du -k", 0, 0)
                                   .split('\n')
                                   .filter("/dev/shm/fill")
                                   .value(0)
                                   .section('\t', 0, 0)
                                   .toInt();
            QVERIFY2(heldKb <= 16 * 1024, qPrintable(r.describe()));
        }
        // The sandbox lives and the space is there again.
        QCOMPARE(m_api.status(id), QStringLiteral("running"));
        QCOMPARE(m_api.run(id, "echo alive"), QStringLiteral("alive\n"));
    }

    void forkAndRestoreKeepTheShmSize()
    {
        const QString id = create({{"size", "nano"}, {"shmMb", 24}});
        QVERIFY(!id.isEmpty());
        const auto r = m_server.request("POST", "/api/sandboxes/" + id + "/fork",
                                        toJson(QJsonObject{{"count", 1}}));
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject copy =
            QJsonDocument::fromJson(r.body).array().at(0).toObject().value("sandbox").toObject();
        const QString forked = copy.value("sandboxId").toString();
        QVERIFY2(!forked.isEmpty(), r.body.constData());
        QCOMPARE(copy.value("shmMb").toInt(), 24);
        const QString df = m_api.run(forked, "df -k /dev/shm | tail -1");
        QVERIFY2(df.simplified().section(' ', 1, 1).toInt() == 24 * 1024, qPrintable(df));
        // A snapshot records it; a restore gets it unless it asks for another size.
        const auto snap = m_server.request("POST", "/api/sandboxes/" + id + "/snapshot", "{}");
        QVERIFY2(snap.status == 200, qPrintable(describe(snap)));
        const QString snapId = jsonObject(snap).value("id").toString();
        QCOMPARE(jsonObject(snap).value("shmMb").toInt(), 24);
        for (const QJsonObject& body : {QJsonObject{{"snapshotId", snapId}},
                                        QJsonObject{{"snapshotId", snapId}, {"shmMb", 8}}}) {
            const auto restored = m_server.request("POST", "/api/sandboxes", toJson(body));
            QVERIFY2(restored.status == 200, qPrintable(describe(restored)));
            const QString copyId = jsonObject(restored).value("sandboxId").toString();
            const int want = body.value("shmMb").toInt(24);
            QCOMPARE(jsonObject(restored).value("shmMb").toInt(), want);
            const QString seen = m_api.run(copyId, "df -k /dev/shm | tail -1");
            QVERIFY2(seen.simplified().section(' ', 1, 1).toInt() == want * 1024, qPrintable(seen));
        }
        m_server.request("DELETE", "/api/sandbox-snapshots/" + snapId);
    }

    void pidOneIsNeverTheOomKillersChoice()
    {
        const QString id = create({{"size", "nano"}});
        QVERIFY(!id.isEmpty());
        const qint64 init = sandboxInitPid(m_server, id);
        QVERIFY(init > 0);
        const int pidOne = readInt(QStringLiteral("/proc/%1/oom_score_adj").arg(init));
        // Each exec, as root and as `user`, several times. PID 1 writes it once the program runs
        // (api/DECISIONS.md, "OOM score"), so what the command starts after its first moments
        // has it.
        for (const QString& user : {QString(), QStringLiteral("user")}) {
            for (int i = 0; i < 5; ++i) {
                const auto r =
                    runShell(m_server, id, "sleep 0.2; cat /proc/self/oom_score_adj", user);
                QVERIFY2(r.out.trimmed() == "1000", qPrintable(r.describe()));
            }
        }
        qInfo() << "oom_score_adj: PID 1" << pidOne << ", every exec 1000";
        // -1000 needs CAP_SYS_RESOURCE (root, unless a container took it away); without it the
        // lowest is what the server inherited, here the test's own score.
        if (!m_server.runsAsOtherUser() && hasSysResource())
            QCOMPARE(pidOne, -1000);
        else
            QVERIFY2(pidOne <= readInt("/proc/self/oom_score_adj"),
                     qPrintable(QString::number(pidOne)));
    }

    void memoryBombEndsItsProcessesNotPidOne()
    {
        const QString id = create({{"size", "nano"}});
        QVERIFY(!id.isEmpty());
        const QJsonObject info = m_api.info(id);
        if (info.value("limits").toObject().value("memory").toString() != "cgroup")
            QSKIP("no memory cgroup (not writable for this user): memory is bounded per process "
                  "only, so no OOM kill is the sandbox's");
        const qint64 init = sandboxInitPid(m_server, id);
        const auto r = runPython(m_server, id, kFourProcessBomb, {}, 120000);
        QVERIFY2(r.httpStatus == 200, qPrintable(r.describe()));
        QStringList kills;
        // (The log's watcher reports within seconds; a loaded machine may take much longer.)
        QTRY_VERIFY_WITH_TIMEOUT(!(kills = logMessages(id).filter("OOM: killed")).isEmpty(), 60000);
        qInfo().noquote() << "log:" << kills.join(" | ");
        // PID 1 lives: the same process, and the next exec works.
        QCOMPARE(sandboxInitPid(m_server, id), init);
        QVERIFY(QFile::exists(QStringLiteral("/proc/%1").arg(init)));
        QCOMPARE(m_api.status(id), QStringLiteral("running"));
        QCOMPARE(m_api.run(id, "echo alive"), QStringLiteral("alive\n"));
        QVERIFY2(kills.filter(QRegularExpression("^OOM: killed \\d+ python3 ")).size() >= 1,
                 qPrintable(kills.join('\n')));
    }

    void shmBombUnderACgroupIsBoundedBySize()
    {
        const QString id = create({{"size", "nano"}, {"shmMb", 900}});
        QVERIFY(!id.isEmpty());
        if (m_api.info(id).value("limits").toObject().value("memory").toString() != "cgroup")
            QSKIP("no memory cgroup (not writable for this user): the shm size alone bounds it, "
                  "as shmPastItsSizeGetsEnospc shows");
        const qint64 init = sandboxInitPid(m_server, id);
        // tmpfs pages plus a process that wants the rest: together past nano's 1 GiB.
        const auto r = runShell(m_server, id,
                                "dd if=/dev/zero of=/dev/shm/fill bs=1M count=900 2>/dev/null; "
                                "python3 -c \"b = bytearray(b'x') * (400 << 20)\"; echo rc=$?");
        qInfo().noquote() << r.describe().left(300);
        QVERIFY2(r.out.contains("rc=137") || r.out.contains("rc=1"), qPrintable(r.describe()));
        QCOMPARE(sandboxInitPid(m_server, id), init);
        QVERIFY(QFile::exists(QStringLiteral("/proc/%1").arg(init)));
        QCOMPARE(m_api.run(id, "rm /dev/shm/fill && echo alive"), QStringLiteral("alive\n"));
    }
};

QTEST_GUILESS_MAIN(TestSecMemory)
#include "tst_sec_memory.moc"
