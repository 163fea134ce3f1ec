// exec (collected and SSE), processes and signals through the API.
#include "support_execstream.h"

#include <QElapsedTimer>
#include <QTcpSocket>

using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::toJson;

namespace {

// Parses an SSE body into its JSON events; *ok is false if any data line is not JSON.
QList<QJsonObject> sseEvents(const QByteArray& body, bool* ok)
{
    QList<QJsonObject> out;
    *ok = true;
    for (const QByteArray& line : body.split('\n')) {
        if (line.isEmpty())
            continue;
        if (!line.startsWith("data: ")) {
            *ok = false;
            continue;
        }
        QJsonParseError err;
        const auto doc = QJsonDocument::fromJson(line.mid(6), &err);
        if (err.error != QJsonParseError::NoError)
            *ok = false;
        out.append(doc.object());
    }
    return out;
}

} // namespace

class TestApiExec : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_id;

    LocalServer::Response exec(const QJsonObject& body, bool sse = false)
    {
        return m_server.request(
            "POST", "/api/sandboxes/" + m_id + "/exec", toJson(body), "<default>",
            sse ? QList<QByteArray>{"Accept: text/event-stream"} : QList<QByteArray>{});
    }

    std::unique_ptr<QTcpSocket> openStream(const QJsonObject& body)
    {
        return lizard::test::openExecStream(m_server, m_id, body);
    }

    static int readPid(QTcpSocket& s, QByteArray& got)
    {
        return lizard::test::readPidEvent(s, got);
    }

    bool processListed(int pid)
    {
        for (const auto& v :
             jsonArray(m_server.request("GET", "/api/sandboxes/" + m_id + "/processes"))) {
            if (v.toObject().value("pid").toInt() == pid)
                return true;
        }
        return false;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_id = lizard::test::createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(m_id, why);
    }

    void stringCommand()
    {
        const auto r = exec({{"cmd", "echo hello; echo oops >&2; exit 3"}});
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject o = jsonObject(r);
        QCOMPARE(o.value("stdout").toString(), QStringLiteral("hello\n"));
        QCOMPARE(o.value("stderr").toString(), QStringLiteral("oops\n"));
        QCOMPARE(o.value("exitCode").toInt(), 3);
        QVERIFY(!o.value("truncated").toBool());
    }

    void argvIsNotInterpreted()
    {
        const auto r = exec({{"cmd", QJsonArray{"printf", "%s|%s", "a b;$HOME", "`id`"}}});
        QCOMPARE(jsonObject(r).value("stdout").toString(), QStringLiteral("a b;$HOME|`id`"));
        QCOMPARE(jsonObject(r).value("exitCode").toInt(), 0);
    }

    void optionsReachTheCommand()
    {
        const auto r = exec({{"cmd", "echo \"$A-$USER\"; pwd; id -u"},
                             {"envs", QJsonObject{{"A", "x y"}}},
                             {"workdir", "/tmp"}});
        QCOMPARE(jsonObject(r).value("stdout").toString(), QStringLiteral("x y-root\n/tmp\n0\n"));
        const auto asUser = exec({{"cmd", "echo $USER $HOME"}, {"user", "user"}});
        QCOMPARE(jsonObject(asUser).value("stdout").toString(),
                 QStringLiteral("user /home/user\n"));
    }

    void invalidRequests_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("code");
        QTest::newRow("no cmd") << QByteArray("{}") << "INVALID_ARGUMENT";
        QTest::newRow("cmd a number") << QByteArray(R"({"cmd":5})") << "INVALID_ARGUMENT";
        QTest::newRow("empty argv") << QByteArray(R"({"cmd":[]})") << "INVALID_ARGUMENT";
        QTest::newRow("argv with a number")
            << QByteArray(R"({"cmd":["echo",1]})") << "INVALID_ARGUMENT";
        QTest::newRow("envs not strings")
            << QByteArray(R"({"cmd":"true","envs":{"A":1}})") << "INVALID_ARGUMENT";
        QTest::newRow("relative workdir")
            << QByteArray(R"({"cmd":"true","workdir":"tmp"})") << "INVALID_ARGUMENT";
        QTest::newRow("timeout below 1 s")
            << QByteArray(R"({"cmd":"true","timeoutMs":999})") << "INVALID_TIMEOUT";
        QTest::newRow("timeout above 10 min")
            << QByteArray(R"({"cmd":"true","timeoutMs":600001})") << "INVALID_TIMEOUT";
        QTest::newRow("timeout a string")
            << QByteArray(R"({"cmd":"true","timeoutMs":"5"})") << "INVALID_TIMEOUT";
        QTest::newRow("pidEvent a string")
            << QByteArray(R"({"cmd":"true","pidEvent":"yes"})") << "INVALID_ARGUMENT";
        QTest::newRow("malformed json") << QByteArray(R"({"cmd":)") << "INVALID_JSON";
    }

    void invalidRequests()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, code);
        const auto r = m_server.request("POST", "/api/sandboxes/" + m_id + "/exec", body);
        QVERIFY2(isError(r, 400, code), qPrintable(describe(r)));
    }

    void missingProgramIsExit127()
    {
        // As a shell reports it (the SDK's desktop helpers rely on 127), also when streamed.
        const auto r = exec({{"cmd", QJsonArray{"/no/such/program"}}});
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(jsonObject(r).value("exitCode").toInt(), 127);
        QVERIFY(jsonObject(r).value("stderr").toString().contains("/no/such/program"));
        bool ok = false;
        const auto ev = sseEvents(exec({{"cmd", QJsonArray{"/no/such/program"}}}, true).body, &ok);
        QVERIFY(ok);
        QCOMPARE(ev.last(), (QJsonObject{{"exitCode", 127}}));
        QCOMPARE(ev.first().value("stream").toString(), QStringLiteral("stderr"));
        // A bare name found nowhere on PATH too.
        const auto bare = exec({{"cmd", QJsonArray{"no-such-program-here"}}});
        QCOMPARE(jsonObject(bare).value("exitCode").toInt(), 127);
    }

    void agentErrors_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("unknown user")
            << QByteArray(R"({"cmd":"id","user":"nobody-here"})") << 400 << "UNKNOWN_USER";
        QTest::newRow("missing workdir")
            << QByteArray(R"({"cmd":"pwd","workdir":"/no/such/dir"})") << 404 << "NOT_FOUND";
    }

    void agentErrors()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        const auto r = m_server.request("POST", "/api/sandboxes/" + m_id + "/exec", body);
        QVERIFY2(isError(r, status, code), qPrintable(describe(r)));
        const auto sse = m_server.request("POST", "/api/sandboxes/" + m_id + "/exec", body,
                                          "<default>", {"Accept: text/event-stream"});
        QVERIFY2(isError(sse, status, code),
                 qPrintable(describe(sse))); // an HTTP error, before any event
    }

    void commandTimeout()
    {
        QElapsedTimer t;
        t.start();
        const auto r = exec({{"cmd", "sleep 30"}, {"timeoutMs", 1000}});
        QCOMPARE(r.status, 200);
        QCOMPARE(jsonObject(r).value("exitCode").toInt(), 124);
        QVERIFY(t.elapsed() < 10000);
    }

    void outputIsCapped()
    {
        const auto r = exec({{"cmd", "head -c 1000000 /dev/zero | tr '\\0' a; echo done >&2"}});
        const QJsonObject o = jsonObject(r);
        QCOMPARE(o.value("stdout").toString().size(), 512 * 1024);
        QCOMPARE(o.value("stderr").toString(), QStringLiteral("done\n"));
        QCOMPARE(o.value("truncated").toBool(), true);
        QCOMPARE(o.value("exitCode").toInt(), 0);
    }

    void streamsEvents()
    {
        const auto r = exec(
            {{"cmd", "echo one; echo two >&2; printf 'three'; exit 7"}, {"pidEvent", true}}, true);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QVERIFY(r.contentType.startsWith("text/event-stream"));
        bool ok = false;
        const auto ev = sseEvents(r.body, &ok);
        QVERIFY2(ok, r.body.constData());
        QVERIFY(ev.size() >= 5);
        QVERIFY(ev.first().value("pid").toInt() > 0);
        QCOMPARE(ev.last(), (QJsonObject{{"exitCode", 7}}));
        QStringList out, err;
        for (const auto& e : ev.mid(1, ev.size() - 2))
            (e.value("stream").toString() == "stderr" ? err : out) << e.value("line").toString();
        QCOMPARE(out, (QStringList{"one", "three"}));
        QCOMPARE(err, QStringList{"two"});
    }

    void streamWithoutPidEvent()
    {
        bool ok = false;
        const auto ev = sseEvents(exec({{"cmd", "echo x"}}, true).body, &ok);
        QVERIFY(ok);
        QCOMPARE(ev.size(), 2);
        QCOMPARE(ev[0], (QJsonObject{{"stream", "stdout"}, {"line", "x"}}));
    }

    void streamRepairsUtf8()
    {
        bool ok = false;
        const auto ev = sseEvents(
            exec({{"cmd", QJsonArray{"printf", "ok \\377\\303\\251\\n"}}}, true).body, &ok);
        QVERIFY(ok);
        QCOMPARE(ev[0].value("line").toString(), QString::fromUtf8("ok \xEF\xBF\xBD\xC3\xA9"));
    }

    void streamsManyLinesInOrder()
    {
        const auto r = exec({{"cmd", "seq 1 100000"}}, true);
        bool ok = false;
        const auto ev = sseEvents(r.body, &ok);
        QVERIFY(ok);
        QCOMPARE(ev.size(), 100001);
        for (int i = 0; i < 100000; i += 997)
            QCOMPARE(ev[i].value("line").toString(), QString::number(i + 1));
        QCOMPARE(ev.last().value("exitCode").toInt(), 0);
    }

    void processesAndSignals()
    {
        auto s = openStream({{"cmd", "sleep 300 & wait"}, {"pidEvent", true}});
        QVERIFY(s);
        QByteArray got;
        const int pid = readPid(*s, got);
        QVERIFY2(pid > 0, got.constData());
        QVERIFY(processListed(pid));
        const QJsonArray list =
            jsonArray(m_server.request("GET", "/api/sandboxes/" + m_id + "/processes"));
        for (const auto& v : list) {
            const QJsonObject p = v.toObject();
            if (p.value("pid").toInt() == pid)
                QVERIFY(p.value("cmd").toArray().last().toString().contains("sleep 300"));
        }
        const auto sig = m_server.request("POST", "/api/sandboxes/" + m_id + "/processes/signal",
                                          toJson({{"pid", pid}, {"signal", "SIGKILL"}}));
        QVERIFY2(sig.status == 204, qPrintable(describe(sig)));
        QTRY_VERIFY_WITH_TIMEOUT((got += s->readAll()).contains("\"exitCode\""), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!processListed(pid), 5000);
        QVERIFY(isError(m_server.request("POST", "/api/sandboxes/" + m_id + "/processes/signal",
                                         toJson({{"pid", pid}})),
                        404, "NOT_FOUND"));
    }

    void badSignals_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("no pid") << QByteArray(R"({"signal":"SIGTERM"})");
        QTest::newRow("pid a string") << QByteArray(R"({"pid":"12"})");
        QTest::newRow("negative pid") << QByteArray(R"({"pid":-1})");
        QTest::newRow("unknown signal") << QByteArray(R"({"pid":12,"signal":"SIGSTOP"})");
    }

    void badSignals()
    {
        QFETCH(QByteArray, body);
        const auto r =
            m_server.request("POST", "/api/sandboxes/" + m_id + "/processes/signal", body);
        QVERIFY2(isError(r, 400, "INVALID_ARGUMENT"), qPrintable(describe(r)));
    }

    void disconnectCancelsTheCommand()
    {
        auto s = openStream({{"cmd", "sleep 300"}, {"pidEvent", true}});
        QVERIFY(s);
        QByteArray got;
        const int pid = readPid(*s, got);
        QVERIFY(pid > 0);
        QVERIFY(processListed(pid));
        s->abort();
        QTRY_VERIFY_WITH_TIMEOUT(!processListed(pid), 10000);
    }

    void disconnectCancelsACollectedCommand()
    {
        QTcpSocket s;
        s.connectToHost("127.0.0.1", quint16(m_server.port()));
        QVERIFY(s.waitForConnected(5000));
        const QByteArray json = R"({"cmd":"sleep 317"})";
        s.write("POST /api/sandboxes/" + m_id.toUtf8() +
                "/exec HTTP/1.1\r\nHost: x\r\nX-API-Key: " + m_server.apiKey().toUtf8() +
                "\r\nContent-Length: " + QByteArray::number(json.size()) + "\r\n\r\n" + json);
        QVERIFY(s.waitForBytesWritten(5000));
        auto sleeping = [&] {
            for (const auto& v :
                 jsonArray(m_server.request("GET", "/api/sandboxes/" + m_id + "/processes"))) {
                if (v.toObject().value("command").toString().contains("sleep 317"))
                    return true;
            }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(sleeping(), 10000);
        s.abort();
        QTRY_VERIFY_WITH_TIMEOUT(!sleeping(), 10000);
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_server.request("DELETE", "/api/sandboxes/" + m_id);
    }
};

QTEST_GUILESS_MAIN(TestApiExec)
#include "tst_api_exec.moc"
