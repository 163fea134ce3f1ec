// The code runner's serve mode in the activity log: the app keeps one streaming runner exec
// open and writes each request as a file into its inbox (resources/runner/PROTOCOL.md, "Serve
// mode"). Each run must be recorded as a runCode entry of its own, with its code, context and
// events, as soon as it is done; request files are transport, not file writes; the serve
// exec's own entry keeps no output; per-run env values never appear.
#include "activity_support.h"

#include <QTcpSocket>

using lizard::test::ActivityFollower;
using lizard::test::describe;
using lizard::test::jsonObject;
using lizard::test::kinds;
using lizard::test::LocalServer;
using lizard::test::runnerExec;
using lizard::test::toJson;

namespace {

const QString kInbox = QStringLiteral("/tmp/.lizard-code/.requests/t1");

QJsonArray stdoutOf(const QJsonObject& run)
{
    QJsonArray out;
    for (const auto& v : run.value("events").toArray())
        if (v.toObject().value("type").toString() == "stdout")
            out << v.toObject().value("data");
    return out;
}

} // namespace

class TestApiActivityServe : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_id;

    int writeRequest(const QString& name, const QJsonObject& request)
    {
        const QString content =
            QString::fromUtf8(QJsonDocument(request).toJson(QJsonDocument::Compact));
        return m_server
            .request("POST", "/api/sandboxes/" + m_id + "/files",
                     toJson({{"path", kInbox + "/req-" + name + ".json"}, {"content", content}}))
            .status;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_id = lizard::test::createSandbox(m_server, {}, &why);
        QVERIFY2(!m_id.isEmpty(), qPrintable(why));
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_server.request("DELETE", "/api/sandboxes/" + m_id);
    }

    void runsOfAServeRunnerAreEntries()
    {
        ActivityFollower follow;
        QVERIFY(follow.open(m_server, m_id));
        QCOMPARE(follow.waitFor(1).size(), 1); // create

        // The serve exec, streamed as the app streams it.
        QTcpSocket serve;
        serve.connectToHost("127.0.0.1", quint16(m_server.port()));
        QVERIFY(serve.waitForConnected(5000));
        const QByteArray body = runnerExec({{"action", "serve"}, {"inbox", "t1"}});
        QVERIFY(!body.isEmpty());
        serve.write("POST /api/sandboxes/" + m_id.toUtf8() +
                    "/exec HTTP/1.1\r\nHost: x\r\nX-API-Key: " + m_server.apiKey().toUtf8() +
                    "\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n"
                    "Content-Length: " +
                    QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QByteArray streamed;
        QElapsedTimer t;
        t.start();
        while (!streamed.contains("ready") && t.elapsed() < 30000) {
            serve.waitForReadyRead(100);
            streamed += serve.readAll();
        }
        QVERIFY2(streamed.contains("ready"), streamed.constData());

        QCOMPARE(writeRequest("r1", {{"req", "r1"},
                                     {"action", "run"},
                                     {"code", "x = 41\nprint(x + 1)"},
                                     {"envs", QJsonObject{{"RUN_SECRET", "serve-env-value-3c9"}}}}),
                 204);
        // Not a run: answered, not recorded.
        QCOMPARE(writeRequest("r2", {{"req", "r2"}, {"action", "list"}}), 204);
        auto got = follow.waitFor(2, 60000);
        QCOMPARE(got.size(), 2);
        const QJsonObject first = got[1];
        QCOMPARE(first.value("kind").toString(), QStringLiteral("runCode"));
        QCOMPARE(first.value("via").toString(), QStringLiteral("serve"));
        QCOMPARE(first.value("code").toString(), QStringLiteral("x = 41\nprint(x + 1)"));
        QCOMPARE(first.value("language").toString(), QStringLiteral("python"));
        QCOMPARE(first.value("envNames").toArray(), QJsonArray{"RUN_SECRET"});
        QCOMPARE(stdoutOf(first), QJsonArray{"42\n"});
        QCOMPARE(first.value("events").toArray().last().toObject().value("type").toString(),
                 QStringLiteral("done"));
        QVERIFY(first.contains("start") && first.contains("durationMs"));

        // The next run sees the first one's variable: the same kernel, its own entry.
        QCOMPARE(writeRequest("r3", {{"action", "run"}, {"code", "print(x * 2)"}}), 204);
        got = follow.waitFor(3, 60000);
        QCOMPARE(got.size(), 3);
        QCOMPARE(got[2].value("code").toString(), QStringLiteral("print(x * 2)"));
        QCOMPARE(stdoutOf(got[2]), QJsonArray{"82\n"});

        // Shut down: the serve exec's own entry names the runner and keeps no output.
        QCOMPARE(writeRequest("r4", {{"action", "shutdown"}}), 204);
        got = follow.waitFor(4, 30000);
        QCOMPARE(kinds(got), (QStringList{"create", "runCode", "runCode", "exec"}));
        const QJsonObject exec = got[3];
        QCOMPARE(exec.value("runner").toObject().value("action").toString(),
                 QStringLiteral("serve"));
        QVERIFY(exec.value("stdoutBytes").toInt() > 0);
        QVERIFY(!exec.contains("stdoutHead") && !exec.contains("stdoutTail"));
        QCOMPARE(exec.value("exitCode").toInt(), 0);

        const QByteArray all =
            m_server.request("GET", "/api/sandboxes/" + m_id + "/activity?limit=10000").body;
        QVERIFY(!all.contains("serve-env-value-3c9"));
        QVERIFY(!all.contains("req-r2.json"));
    }
};

QTEST_GUILESS_MAIN(TestApiActivityServe)
#include "tst_api_activityserve.moc"
