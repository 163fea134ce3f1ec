// Auth on every call, the uniform JSON errors, body limits, and survival of garbage input.
#include "support_http.h"

#include <QElapsedTimer>
#include <QTcpSocket>

using lizard::test::LocalServer;

class TestApiErrors : public QObject
{
    Q_OBJECT

    LocalServer m_server;

    bool stillServes() { return m_server.request("GET", "/api/projects").status == 200; }

private slots:
    void initTestCase() { QVERIFY2(m_server.start(), qPrintable(m_server.errorString())); }

    void authIsRequired_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("key");
        const QList<QPair<QByteArray, QString>> calls{{"GET", "/api/projects"},
                                                      {"GET", "/api/sandboxes"},
                                                      {"GET", "/api/sandboxes/sb_doesnotexist"},
                                                      {"DELETE", "/api/sandboxes/sb_doesnotexist"},
                                                      {"POST", "/api/sandboxes"},
                                                      {"GET", "/api/auth/me"},
                                                      {"GET", "/no/such/path"},
                                                      {"GET", "/api/nothing-here"}};
        for (const auto& [method, path] : calls) {
            QTest::newRow(qPrintable(method + " " + path + " no key"))
                << method << path << QByteArray();
            QTest::newRow(qPrintable(method + " " + path + " wrong key"))
                << method << path << QByteArray("liz_0000000000000000000000000000000000000000");
            QTest::newRow(qPrintable(method + " " + path + " garbage key"))
                << method << path << QByteArray("x");
        }
    }

    void authIsRequired()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QByteArray, key);
        const auto r =
            m_server.request(method, path, method == "POST" ? QByteArray("{}") : QByteArray(), key);
        QVERIFY2(lizard::test::isError(r, 401, "UNAUTHORIZED"),
                 qPrintable(lizard::test::describe(r)));
        QVERIFY(r.contentType.startsWith("application/json"));
    }

    void wrongBearerIsRefused()
    {
        const auto r = m_server.request("GET", "/api/projects", {}, QByteArray(),
                                        {"Authorization: Bearer nope"});
        QVERIFY(lizard::test::isError(r, 401, "UNAUTHORIZED"));
        const auto basic = m_server.request("GET", "/api/projects", {}, QByteArray(),
                                            {"Authorization: Basic " + m_server.apiKey().toUtf8()});
        QVERIFY(lizard::test::isError(basic, 401, "UNAUTHORIZED"));
    }

    void expectContinueChecksTheKeyFirst()
    {
        // curl sends "Expect: 100-continue" before a big body: a bad key is refused before it.
        const QByteArray big = "{\"name\":\"" + QByteArray(300000, 'a') + "\"}";
        const auto bad =
            m_server.request("POST", "/api/projects", big, "liz_wrong", {"Expect: 100-continue"});
        QVERIFY2(lizard::test::isError(bad, 401, "UNAUTHORIZED"),
                 qPrintable(lizard::test::describe(bad)));
        QElapsedTimer t;
        t.start();
        const auto good = m_server.request("POST", "/api/projects", R"({"name":"expecting"})",
                                           "<default>", {"Expect: 100-continue"});
        QCOMPARE(good.status, 200);
        QVERIFY(t.elapsed() < 900); // answered 100 Continue, not curl's 1 s fallback
        QVERIFY(stillServes());
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("mentions");

        QTest::newRow("unknown api path")
            << QByteArray("GET") << "/api/whatever" << QByteArray() << 404 << "NOT_FOUND"
            << "/api/whatever";
        QTest::newRow("path outside api")
            << QByteArray("GET") << "/index.html" << QByteArray() << 404 << "NOT_FOUND"
            << "";
        QTest::newRow("unknown sandbox")
            << QByteArray("GET") << "/api/sandboxes/sb_nope" << QByteArray() << 404 << "NOT_FOUND"
            << "sb_nope";
        QTest::newRow("kill unknown sandbox") << QByteArray("DELETE") << "/api/sandboxes/sb_nope"
                                              << QByteArray() << 404 << "NOT_FOUND"
                                              << "sb_nope";
        QTest::newRow("exec unknown sandbox")
            << QByteArray("POST") << "/api/sandboxes/sb_nope/exec"
            << QByteArray(R"({"cmd":"true"})") << 404 << "NOT_FOUND"
            << "sb_nope";
        QTest::newRow("timeout unknown sandbox")
            << QByteArray("POST") << "/api/sandboxes/sb_nope/timeout"
            << QByteArray(R"({"timeoutMs":5000})") << 404 << "NOT_FOUND"
            << "sb_nope";
        QTest::newRow("files unknown sandbox")
            << QByteArray("GET") << "/api/sandboxes/sb_nope/files?path=/etc" << QByteArray() << 404
            << "NOT_FOUND"
            << "sb_nope";
        QTest::newRow("unknown project")
            << QByteArray("GET") << "/api/projects/proj_nope" << QByteArray() << 404 << "NOT_FOUND"
            << "proj_nope";
        QTest::newRow("method not allowed") << QByteArray("PUT") << "/api/projects"
                                            << QByteArray("{}") << 405 << "METHOD_NOT_ALLOWED"
                                            << "PUT";
        QTest::newRow("malformed json") << QByteArray("POST") << "/api/projects"
                                        << QByteArray("{\"name\":") << 400 << "INVALID_JSON"
                                        << "";
        QTest::newRow("json not an object")
            << QByteArray("POST") << "/api/projects" << QByteArray("[1,2]") << 400 << "INVALID_JSON"
            << "object";
        QTest::newRow("project name missing") << QByteArray("POST") << "/api/projects"
                                              << QByteArray("{}") << 400 << "INVALID_ARGUMENT"
                                              << "name";
        QTest::newRow("project name a number")
            << QByteArray("POST") << "/api/projects" << QByteArray(R"({"name":5})") << 400
            << "INVALID_ARGUMENT"
            << "name";
        QTest::newRow("create: template a number")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"template":1})") << 400
            << "INVALID_ARGUMENT"
            << "template";
        QTest::newRow("create: unknown template")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"template":"windows"})")
            << 400 << "INVALID_TEMPLATE"
            << "windows";
        // Cloud templates lizard-local has no counterpart of: the answer names the local ones.
        QTest::newRow("create: cloud template claude")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"template":"claude"})")
            << 400 << "INVALID_TEMPLATE"
            << "base, interpreter (also called code-interpreter-v1) and desktop";
        QTest::newRow("create: cloud template codex")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"template":"codex"})")
            << 400 << "INVALID_TEMPLATE"
            << "code-interpreter-v1";
        QTest::newRow("create: unknown size")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"size":"huge"})") << 400
            << "INVALID_ARGUMENT"
            << "size";
        QTest::newRow("create: size a bool")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"size":true})") << 400
            << "INVALID_ARGUMENT"
            << "size";
        QTest::newRow("create: timeout a string")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"timeoutMs":"10"})") << 400
            << "INVALID_ARGUMENT"
            << "timeoutMs";
        QTest::newRow("create: timeout fractional")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"timeoutMs":1500.5})")
            << 400 << "INVALID_ARGUMENT"
            << "timeoutMs";
        QTest::newRow("create: timeout too small")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"timeoutMs":999})") << 400
            << "INVALID_TIMEOUT"
            << "timeoutMs";
        QTest::newRow("create: timeout negative")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"timeoutMs":-1})") << 400
            << "INVALID_TIMEOUT"
            << "timeoutMs";
        QTest::newRow("create: timeout too big")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"timeoutMs":2147483648})")
            << 400 << "INVALID_TIMEOUT"
            << "timeoutMs";
        QTest::newRow("create: metadata not strings")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"metadata":{"a":1}})")
            << 400 << "INVALID_ARGUMENT"
            << "metadata.a";
        QTest::newRow("create: metadata an array")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"metadata":["a"]})") << 400
            << "INVALID_ARGUMENT"
            << "metadata";
        QTest::newRow("create: envs not strings")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"envs":{"A":true}})") << 400
            << "INVALID_ARGUMENT"
            << "envs.A";
        QTest::newRow("create: env name with =")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"envs":{"A=B":"c"}})")
            << 400 << "INVALID_ARGUMENT"
            << "envs";
        QTest::newRow("create: internetAccess a string")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"internetAccess":"no"})")
            << 400 << "INVALID_ARGUMENT"
            << "internetAccess";
        QTest::newRow("create: projectId a number")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"projectId":7})") << 400
            << "INVALID_ARGUMENT"
            << "projectId";
        QTest::newRow("create: unknown project")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"projectId":"proj_nope"})")
            << 404 << "NOT_FOUND"
            << "proj_nope";
        QTest::newRow("create: missing snapshot")
            << QByteArray("POST") << "/api/sandboxes" << QByteArray(R"({"snapshotId":"s1"})") << 404
            << "NOT_FOUND"
            << "s1";
        QTest::newRow("create: allowedHosts with a bad name")
            << QByteArray("POST") << "/api/sandboxes"
            << QByteArray(R"({"internetAccess":false,"allowedHosts":["x .org"]})") << 400
            << "INVALID_ALLOWED_HOST"
            << "allowedHosts";
        QTest::newRow("pause of a missing sandbox")
            << QByteArray("POST") << "/api/sandboxes/sb_x/pause" << QByteArray() << 404
            << "NOT_FOUND"
            << "sb_x";
        QTest::newRow("volumes of a missing project")
            << QByteArray("GET") << "/api/projects/proj_nope/volumes" << QByteArray() << 404
            << "NOT_FOUND"
            << "proj_nope";
        QTest::newRow("watch of a missing sandbox")
            << QByteArray("POST") << "/api/sandboxes/sb_x/files/watch" << QByteArray("{}") << 404
            << "NOT_FOUND"
            << "sb_x";
        QTest::newRow("logs of a missing sandbox")
            << QByteArray("GET") << "/api/sandboxes/sb_x/logs" << QByteArray() << 404 << "NOT_FOUND"
            << "sb_x";
    }

    void errors()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(QString, mentions);
        const auto r = m_server.request(method, path, body);
        QVERIFY2(lizard::test::isError(r, status, code), qPrintable(lizard::test::describe(r)));
        QVERIFY2(lizard::test::jsonObject(r).value("message").toString().contains(mentions),
                 qPrintable(lizard::test::describe(r)));
    }

    void regionUnavailableLetsTheSdkRetry()
    {
        // The SDK retries without a region when it sees code "region_unavailable" on a 503.
        const auto r = m_server.request("POST", "/api/sandboxes", R"({"region":"us-east-1"})");
        QCOMPARE(r.status, 503);
        QCOMPARE(lizard::test::jsonObject(r).value("code").toString(),
                 QStringLiteral("region_unavailable"));
        QCOMPARE(lizard::test::jsonObject(r).value("error").toString(),
                 QStringLiteral("REGION_UNAVAILABLE"));
        QVERIFY(lizard::test::jsonObject(r).value("message").toString().contains("us-east-1"));
    }

    void methodNotAllowedNamesAllowed()
    {
        const auto r = m_server.request("DELETE", "/api/projects");
        QCOMPARE(r.status, 405);
        QVERIFY(lizard::test::jsonObject(r).value("message").toString().contains("GET"));
    }

    void bodyTooLarge()
    {
        const QByteArray big = "{\"name\":\"" + QByteArray(2 << 20, 'a') + "\"}";
        const auto r = m_server.request("POST", "/api/projects", big);
        QVERIFY2(lizard::test::isError(r, 413, "PAYLOAD_TOO_LARGE"),
                 qPrintable(lizard::test::describe(r)));
        QVERIFY(stillServes());
        // Uploads have their own, larger limit: 2 MiB reaches the route (which then says 404).
        const auto upload =
            m_server.request("POST", "/api/sandboxes/sb_nope/files",
                             "{\"path\":\"/x\",\"content\":\"" + QByteArray(2 << 20, 'a') + "\"}");
        QVERIFY2(lizard::test::isError(upload, 404, "NOT_FOUND"),
                 qPrintable(lizard::test::describe(upload)));
    }

    void emptyAnswersAre204()
    {
        const auto created = m_server.request("POST", "/api/projects", R"({"name":"to-delete"})");
        QCOMPARE(created.status, 200);
        const QString id = lizard::test::jsonObject(created).value("id").toString();
        const auto r = m_server.request("DELETE", "/api/projects/" + id);
        QCOMPARE(r.status, 204);
        QVERIFY(r.body.isEmpty());
    }

    void survivesGarbage_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("binary junk") << QByteArray("\x00\xff\x13\x37garbage\r\n\r\n", 15);
        QTest::newRow("bad request line") << QByteArray("HELLO\r\n\r\n");
        QTest::newRow("bad version") << QByteArray("GET / HTTP/9.9\r\n\r\n");
        QTest::newRow("huge header")
            << "GET /api/projects HTTP/1.1\r\nX-Big: " + QByteArray(100000, 'x') + "\r\n\r\n";
        QTest::newRow("negative content length")
            << QByteArray("POST /api/projects HTTP/1.1\r\nContent-Length: -5\r\n\r\n");
        QTest::newRow("bad chunk") << QByteArray(
            "POST /api/projects HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
        QTest::newRow("truncated body")
            << QByteArray("POST /api/projects HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"na");
        QTest::newRow("just a newline") << QByteArray("\r\n");
    }

    void survivesGarbage()
    {
        QFETCH(QByteArray, bytes);
        QTcpSocket s;
        s.connectToHost("127.0.0.1", quint16(m_server.port()));
        QVERIFY(s.waitForConnected(5000));
        s.write(bytes);
        QVERIFY(s.waitForBytesWritten(5000) || bytes.isEmpty());
        s.waitForReadyRead(300);
        const QByteArray answer = s.readAll();
        if (!answer.isEmpty())
            QVERIFY2(answer.startsWith("HTTP/1.1 4"), answer.constData());
        s.abort();
        QVERIFY(stillServes());
    }

    void keepAliveServesManyRequests()
    {
        QTcpSocket s;
        s.connectToHost("127.0.0.1", quint16(m_server.port()));
        QVERIFY(s.waitForConnected(5000));
        const QByteArray req =
            "GET /api/regions HTTP/1.1\r\nHost: x\r\nX-API-Key: " + m_server.apiKey().toUtf8() +
            "\r\n\r\n";
        s.write(req + req + req); // pipelined
        QByteArray all;
        QTRY_VERIFY_WITH_TIMEOUT((all += s.readAll()).count("HTTP/1.1 200") == 3, 5000);
        QVERIFY(all.contains("\"local\""));
    }
};

QTEST_GUILESS_MAIN(TestApiErrors)
#include "tst_api_errors.moc"
