// Pause and resume through the API: statuses, the freezer really stops every process and
// keeps them (same pids, same memory), calls refused while paused, idempotence, kill and
// deadline of a paused sandbox, a kill right after a resume, and adoption of a paused
// sandbox after a restart.
#include "lifecycle_support.h"

#include <QElapsedTimer>

using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::SandboxApi;
using lizard::test::toJson;

class TestApiLifecycle : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    SandboxApi m_api{m_server};
    QString m_id; // a sandbox with a counting background process

    QString create(const QJsonObject& body = {})
    {
        QString why;
        const QString id = lizard::test::createSandbox(m_server, body, &why);
        if (id.isEmpty())
            qWarning() << why;
        return id;
    }

    int counter() { return m_api.run(m_id, "cat /tmp/counter").trimmed().toInt(); }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        const auto probe = m_server.request("POST", "/api/sandboxes", "{}");
        LIZ_REQUIRE_CREATED(probe);
        m_id = jsonObject(probe).value("sandboxId").toString();
        // A shell that counts in its own memory and writes the count every 20 ms (replacing the
        // file, so a reader never sees it half written).
        const auto started = m_api.exec(m_id, "nohup bash -c 'n=0; while :; do n=$((n+1)); echo $n "
                                              "> /tmp/c.new; mv /tmp/c.new /tmp/counter; "
                                              "sleep 0.02; done' "
                                              ">/dev/null 2>&1 & echo $!");
        QVERIFY2(started.status == 200, qPrintable(describe(started)));
        QTRY_VERIFY2_WITH_TIMEOUT(counter() > 3, qPrintable(m_api.run(m_id, "cat /tmp/counter")),
                                  15000);
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_api.kill(m_id);
    }

    void pauseFreezesEveryProcess()
    {
        // The counting loop itself: the oldest match (its forks for mv and sleep match too,
        // briefly).
        const QString processesBefore = m_api.run(m_id, "pgrep -o -f 'n=[0]'");
        QVERIFY(!processesBefore.isEmpty());
        QElapsedTimer t;
        t.start();
        QCOMPARE(m_api.post(m_id, "pause"), 204);
        qInfo() << "pause took" << t.elapsed() << "ms";
        QCOMPARE(m_api.status(m_id), QStringLiteral("paused"));
        const QJsonObject info = m_api.info(m_id);
        QVERIFY(info.value("pauseError").isNull());
        // listed with its status, in both lists
        bool listed = false;
        for (const auto& v : jsonArray(m_server.request("GET", "/api/sandboxes")))
            listed = listed || (v.toObject().value("sandboxId").toString() == m_id &&
                                v.toObject().value("status").toString() == "paused");
        QVERIFY(listed);
        QTest::qWait(600); // a running counter would advance by ~30 meanwhile
        t.restart();
        QCOMPARE(m_api.post(m_id, "resume"), 204);
        qInfo() << "resume took" << t.elapsed() << "ms";
        QCOMPARE(m_api.status(m_id), QStringLiteral("running"));
        const int afterResume = counter();
        // the counting process runs again (slowly on a loaded host: give it time)
        QTRY_VERIFY_WITH_TIMEOUT(counter() > afterResume, 5000);
        // the same processes, with their memory: nothing was restarted
        QCOMPARE(m_api.run(m_id, "pgrep -o -f 'n=[0]'"), processesBefore);
    }

    void frozenMeansStopped()
    {
        const int before = counter();
        QCOMPARE(m_api.post(m_id, "pause"), 204);
        QTest::qWait(500);
        QCOMPARE(m_api.post(m_id, "resume"), 204);
        // at most a couple of increments around the two calls, never ~25
        QVERIFY2(counter() - before < 10,
                 qPrintable(QString("counter moved by %1").arg(counter() - before)));
    }

    void callsWhilePaused_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("exec") << QByteArray("POST") << "/exec" << QByteArray(R"({"cmd":"true"})");
        QTest::newRow("processes") << QByteArray("GET") << "/processes" << QByteArray();
        QTest::newRow("signal") << QByteArray("POST") << "/processes/signal"
                                << QByteArray(R"({"pid":1})");
        QTest::newRow("read file")
            << QByteArray("GET") << "/files?path=/tmp/counter" << QByteArray();
        QTest::newRow("write file")
            << QByteArray("POST") << "/files" << QByteArray(R"({"path":"/tmp/a","content":"x"})");
        QTest::newRow("list") << QByteArray("GET") << "/files/list?path=/tmp" << QByteArray();
        QTest::newRow("stat") << QByteArray("GET") << "/files/stat?path=/tmp" << QByteArray();
        QTest::newRow("remove") << QByteArray("DELETE") << "/files"
                                << QByteArray(R"({"path":"/tmp/counter"})");
        QTest::newRow("move") << QByteArray("POST") << "/files/move"
                              << QByteArray(R"({"from":"/tmp/counter","to":"/tmp/b"})");
    }

    void callsWhilePaused()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QByteArray, body);
        QCOMPARE(m_api.post(m_id, "pause"), 204);
        const auto r = m_server.request(method, "/api/sandboxes/" + m_id + path, body);
        QCOMPARE(m_api.post(m_id, "resume"), 204);
        QVERIFY2(isError(r, 409, "SANDBOX_PAUSED"), qPrintable(describe(r)));
        QVERIFY(jsonObject(r).value("message").toString().contains("resume"));
        QCOMPARE(m_api.read(m_id, "/tmp/counter").status, 200); // nothing was lost
    }

    void pauseAndResumeAreIdempotent()
    {
        QCOMPARE(m_api.post(m_id, "resume"), 204); // resume of a running sandbox
        QCOMPARE(m_api.status(m_id), QStringLiteral("running"));
        QCOMPARE(m_api.post(m_id, "pause"), 204);
        QCOMPARE(m_api.post(m_id, "pause"), 204); // pause twice
        QCOMPARE(m_api.status(m_id), QStringLiteral("paused"));
        QCOMPARE(m_api.post(m_id, "resume"), 204);
        QCOMPARE(m_api.post(m_id, "resume"), 204);
        QCOMPARE(m_api.status(m_id), QStringLiteral("running"));
        QCOMPARE(m_api.run(m_id, "echo ok"), QStringLiteral("ok\n"));
    }

    void unknownSandbox_data()
    {
        QTest::addColumn<QString>("what");
        QTest::newRow("pause") << "pause";
        QTest::newRow("resume") << "resume";
    }

    void unknownSandbox()
    {
        QFETCH(QString, what);
        const auto r = m_server.request("POST", "/api/sandboxes/sb_doesnotexist000/" + what);
        QVERIFY2(isError(r, 404, "NOT_FOUND"), qPrintable(describe(r)));
    }

    void killPaused()
    {
        const QString id = create();
        QVERIFY(!id.isEmpty());
        QCOMPARE(m_api.post(id, "pause"), 204);
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + id).status, 204);
        QCOMPARE(m_server.request("GET", "/api/sandboxes/" + id).status, 404);
        QCOMPARE(m_api.post(id, "resume"), 404);
    }

    // Kill follows resume at once, as an SDK client does: a kill drops the sandbox's operation
    // lock while the resume's worker may still hold it (this crashed the server with a use
    // after free; an ASan build, `make test-asan`, sees it on the first round).
    void killRightAfterResume()
    {
        for (int round = 0; round < 12; ++round) {
            const QString id = create();
            QVERIFY(!id.isEmpty());
            QCOMPARE(m_api.post(id, "pause"), 204);
            QCOMPARE(m_api.post(id, "resume"), 204);
            QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + id).status, 204);
            QCOMPARE(m_api.post(id, "pause"), 404); // late: no new lock for a killed sandbox
        }
        QCOMPARE(m_server.request("GET", "/api/sandboxes/" + m_id).status, 200);
    }

    void lifetimeRunsWhilePaused()
    {
        const QString id = create({{"timeoutMs", 2000}});
        QVERIFY(!id.isEmpty());
        QCOMPARE(m_api.post(id, "pause"), 204);
        QCOMPARE(m_api.status(id), QStringLiteral("paused"));
        QTRY_COMPARE_WITH_TIMEOUT(m_server.request("GET", "/api/sandboxes/" + id).status, 404,
                                  8000);
    }

    void pausedSurvivesRestart()
    {
        const QString before = m_api.run(m_id, "pgrep -o -f 'n=[0]'");
        QCOMPARE(m_api.post(m_id, "pause"), 204);
        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
        QCOMPARE(m_api.status(m_id), QStringLiteral("paused")); // adopted, still frozen
        QTest::qWait(6000); // a health check round: a frozen agent is not "lost"
        QCOMPARE(m_api.status(m_id), QStringLiteral("paused"));
        QCOMPARE(m_api.post(m_id, "resume"), 204);
        QCOMPARE(m_api.status(m_id), QStringLiteral("running"));
        QCOMPARE(m_api.run(m_id, "pgrep -o -f 'n=[0]'"), before);
    }
};

QTEST_GUILESS_MAIN(TestApiLifecycle)
#include "tst_api_lifecycle.moc"
