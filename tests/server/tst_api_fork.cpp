// Fork through the API: count limits, one entry per copy, copies with the source's files,
// template, size, envs and metadata, the source kept running (same processes), lifetimes,
// and the running limit per copy (also for restore).
#include "lifecycle_support.h"

#include <QDateTime>

using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::SandboxApi;
using lizard::test::toJson;

class TestApiFork : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    SandboxApi m_api{m_server};
    QString m_source;
    QStringList m_created;

    LocalServer::Response fork(const QString& id, const QByteArray& body)
    {
        return m_server.request("POST", "/api/sandboxes/" + id + "/fork", body);
    }

    static QDateTime time(const QJsonObject& o, const char* field)
    {
        return QDateTime::fromString(o.value(field).toString(), Qt::ISODateWithMs);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        const auto probe =
            m_server.request("POST", "/api/sandboxes",
                             toJson({{"size", "mini"},
                                     {"timeoutMs", 600000},
                                     {"envs", QJsonObject{{"FROM_CREATE", "src"}}},
                                     {"metadata", QJsonObject{{"role", "source"}}}}));
        LIZ_REQUIRE_CREATED(probe);
        m_source = jsonObject(probe).value("sandboxId").toString();
        m_created << m_source;
        QCOMPARE(m_api.write(m_source, "/home/user/data.txt", "from the source"), 204);
        QCOMPARE(m_api.exec(m_source, "nohup sleep 1000 >/dev/null 2>&1 &").status, 200);
        // The exec answers once the shell is done; the background child may not be `sleep`
        // yet (it execs a moment later).
        QTRY_VERIFY_WITH_TIMEOUT(!m_api.run(m_source, "pgrep -x sleep").startsWith("<exit"), 10000);
    }

    void cleanupTestCase()
    {
        for (const QString& id : m_created)
            m_api.kill(id);
    }

    void badRequests_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("code");
        QTest::newRow("count 0") << QByteArray(R"({"count":0})") << "INVALID_ARGUMENT";
        QTest::newRow("count 101") << QByteArray(R"({"count":101})") << "INVALID_ARGUMENT";
        QTest::newRow("count -1") << QByteArray(R"({"count":-1})") << "INVALID_ARGUMENT";
        QTest::newRow("count string") << QByteArray(R"({"count":"2"})") << "INVALID_ARGUMENT";
        QTest::newRow("count fraction") << QByteArray(R"({"count":1.5})") << "INVALID_ARGUMENT";
        QTest::newRow("timeout too small")
            << QByteArray(R"({"count":1,"timeoutMs":5})") << "INVALID_TIMEOUT";
        QTest::newRow("not json") << QByteArray("{") << "INVALID_JSON";
    }

    void badRequests()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, code);
        const auto r = fork(m_source, body);
        QVERIFY2(isError(r, 400, code), qPrintable(describe(r)));
    }

    void unknownSource()
    {
        QVERIFY(isError(fork("sb_nosuchsandbox00", R"({"count":1})"), 404, "NOT_FOUND"));
    }

    void forkTwo()
    {
        const QString sleepers = m_api.run(m_source, "pgrep -x sleep");
        QVERIFY(!sleepers.isEmpty());
        const auto r = fork(m_source, R"({"count":2,"timeoutMs":0})");
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonArray entries = jsonArray(r);
        QCOMPARE(entries.size(), 2);
        QStringList copies;
        for (const auto& v : entries) {
            const QJsonObject sandbox = v.toObject().value("sandbox").toObject();
            const QString id = sandbox.value("sandboxId").toString();
            QVERIFY2(id.startsWith("sb_"), qPrintable(QJsonDocument(v.toObject()).toJson()));
            m_created << id;
            copies << id;
            QCOMPARE(sandbox.value("status").toString(), QStringLiteral("running"));
            QCOMPARE(sandbox.value("size").toString(), QStringLiteral("mini"));
            QCOMPARE(sandbox.value("template").toString(), QStringLiteral("base"));
            QCOMPARE(sandbox.value("metadata").toObject().value("role").toString(),
                     QStringLiteral("source"));
            // lifetime 0 = the source's (10 minutes), from now
            QVERIFY(qAbs(time(sandbox, "startedAt").msecsTo(time(sandbox, "endAt")) - 600000) <
                    2000);
            QCOMPARE(m_api.read(id, "/home/user/data.txt").body, QByteArray("from the source"));
            QCOMPARE(m_api.run(id, "echo $FROM_CREATE"), QStringLiteral("src\n"));
            // processes do not come along: a copy starts fresh with the files
            QCOMPARE(m_api.run(id, "pgrep -x sleep || echo none"), QStringLiteral("none\n"));
        }
        QVERIFY(copies[0] != copies[1]);
        // the source keeps running, with the same processes
        QCOMPARE(m_api.status(m_source), QStringLiteral("running"));
        QCOMPARE(m_api.run(m_source, "pgrep -x sleep"), sleepers);
        // copies are independent of each other and of the source
        QCOMPARE(m_api.write(copies[0], "/home/user/data.txt", "changed in copy 0"), 204);
        QCOMPARE(m_api.read(copies[1], "/home/user/data.txt").body, QByteArray("from the source"));
        QCOMPARE(m_api.read(m_source, "/home/user/data.txt").body, QByteArray("from the source"));
    }

    // Pid files a copy inherits must not name one of its own processes (pidcounter.h): a
    // process of the copy gets a pid above every pid in use in the source.
    void copyStartsPidsPastTheSource()
    {
        const QString source = m_api.run(m_source, "for i in $(seq 300); do /bin/true; done;"
                                                   " nohup sleep 999 >/dev/null 2>&1 & echo $!");
        const int sourcePid = source.trimmed().toInt();
        QVERIFY2(sourcePid > 300, qPrintable(source));
        const auto r = fork(m_source, R"({"count":1})");
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QString copy = forkedSandbox(r).value("sandboxId").toString();
        QVERIFY(!copy.isEmpty());
        m_created << copy;
        const int copyPid = m_api.run(copy, "echo $$").trimmed().toInt();
        QVERIFY2(copyPid > sourcePid,
                 qPrintable(QString("copy %1, source %2").arg(copyPid).arg(sourcePid)));
        // What a pid file check sees in the copy: the source's pid names nothing.
        QCOMPARE(
            m_api.run(copy,
                      QString("kill -0 %1 2>/dev/null && echo alive || echo gone").arg(sourcePid)),
            QStringLiteral("gone\n"));
        QCOMPARE(m_api.run(m_source, QString("kill %1 && echo ok").arg(sourcePid)),
                 QStringLiteral("ok\n"));
    }

    void forkWithLifetime()
    {
        const auto r = fork(m_source, R"({"count":1,"timeoutMs":120000})");
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject sandbox = forkedSandbox(r);
        m_created << sandbox.value("sandboxId").toString();
        QVERIFY(qAbs(time(sandbox, "startedAt").msecsTo(time(sandbox, "endAt")) - 120000) < 2000);
    }

    void forkPaused()
    {
        QCOMPARE(m_api.post(m_source, "pause"), 204);
        const auto r = fork(m_source, "{}"); // count defaults to 1
        QCOMPARE(m_api.status(m_source), QStringLiteral("paused"));
        QCOMPARE(m_api.post(m_source, "resume"), 204);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(jsonArray(r).size(), 1);
        const QString id = forkedSandbox(r).value("sandboxId").toString();
        m_created << id;
        QCOMPARE(m_api.read(id, "/home/user/data.txt").body, QByteArray("from the source"));
    }

    void sourceWithVolumeIsRefused()
    {
        const QString project = jsonObject(m_server.request("GET", "/api/sandboxes/" + m_source))
                                    .value("projectId")
                                    .toString();
        const auto vol = m_server.request("POST", "/api/projects/" + project + "/volumes",
                                          R"({"name":"fork-vol","sizeGb":1})");
        QVERIFY2(vol.status == 200 || vol.status == 201, qPrintable(describe(vol)));
        QString why;
        const QString id = lizard::test::createSandbox(
            m_server, {{"projectId", project}, {"volumeName", "fork-vol"}}, &why);
        QVERIFY2(!id.isEmpty(), qPrintable(why));
        m_created << id;
        const auto r = fork(id, R"({"count":1})");
        QVERIFY2(isError(r, 409, "SANDBOX_HAS_VOLUME"), qPrintable(describe(r)));
        m_api.kill(id);
        m_server.request("DELETE", "/api/projects/" + project + "/volumes/fork-vol");
    }

    void limitPerCopy()
    {
        LocalServer limited;
        QVERIFY2(limited.start({"--max-running", "2"}), qPrintable(limited.errorString()));
        SandboxApi api(limited);
        const QString src = lizard::test::createSandbox(limited);
        QVERIFY(!src.isEmpty());
        QCOMPARE(api.write(src, "/root/f", "x"), 204);
        const auto r = limited.request("POST", "/api/sandboxes/" + src + "/fork", R"({"count":3})");
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonArray entries = jsonArray(r);
        QCOMPARE(entries.size(), 3);
        int made = 0, refused = 0;
        QString copy;
        for (const auto& v : entries) {
            const QJsonObject e = v.toObject();
            if (e.contains("sandbox")) {
                ++made;
                copy = e.value("sandbox").toObject().value("sandboxId").toString();
                continue;
            }
            ++refused;
            QVERIFY(!e.value("error").toString().isEmpty());
            QCOMPARE(e.value("code").toString(), QStringLiteral("LIMIT_EXCEEDED"));
            QCOMPARE(e.value("limit").toInt(), 2);
            QVERIFY(e.value("running").toInt() >= 2);
            QVERIFY(e.value("retryAfterS").toInt() > 0);
        }
        QCOMPARE(made, 1);
        QCOMPARE(refused, 2);
        QCOMPARE(api.read(copy, "/root/f").body, QByteArray("x"));
        // restore counts against the limit too
        const auto snap = limited.request("POST", "/api/sandboxes/" + src + "/snapshot", "{}");
        QCOMPARE(snap.status, 200);
        const auto restore =
            limited.request("POST", "/api/sandboxes",
                            toJson({{"snapshotId", jsonObject(snap).value("id").toString()}}));
        QVERIFY2(isError(restore, 429, "LIMIT_EXCEEDED"), qPrintable(describe(restore)));
        QCOMPARE(jsonObject(restore).value("limit").toInt(), 2);
        QCOMPARE(jsonObject(restore).value("running").toInt(), 2);
        QVERIFY(jsonObject(restore).value("retryAfterS").toInt() > 0);
        api.kill(copy);
        api.kill(src);
    }
};

QTEST_GUILESS_MAIN(TestApiFork)
#include "tst_api_fork.moc"
