// The port proxy's access rules against a real lizard-local: the answer of expose, the
// token paths (header, query → cookie → redirect, cookie, none, wrong, another sandbox's),
// the Host check that stops DNS rebinding, and what reaches the sandbox.
#include "proxy_support.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

using namespace lizard::test;

class TestProxy : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_a, m_b; // two sandboxes, each with the echo server on 8000
    Exposed m_ea, m_eb;

    QString proxyAnchor() const { return "127.0.0.1:" + m_ea.hostname.section(':', 1, 1); }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_a = createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(m_a, why);
        m_b = createSandbox(m_server, {}, &why);
        QVERIFY2(!m_b.isEmpty(), qPrintable(why));
        for (const QString& id : {m_a, m_b})
            QVERIFY2(startSandboxServer(m_server, id, 8000, &why), qPrintable(why));
        m_ea = expose(m_server, m_a, 8000, &why);
        QVERIFY2(!m_ea.token.isEmpty(), qPrintable(why));
        m_eb = expose(m_server, m_b, 8000, &why);
        QVERIFY2(!m_eb.token.isEmpty(), qPrintable(why));
        QVERIFY2(waitUntilServing(m_ea),
                 "the echo server in sandbox A did not answer through the proxy");
        QVERIFY2(waitUntilServing(m_eb),
                 "the echo server in sandbox B did not answer through the proxy");
    }

    void exposeAnswer()
    {
        static const QRegularExpression host(R"(^127\.(\d+)\.(\d+)\.(\d+):(\d+)$)");
        const auto m = host.match(m_ea.hostname);
        QVERIFY2(m.hasMatch(), qPrintable(m_ea.hostname));
        QVERIFY2(!m_ea.hostname.startsWith("127.0.0."), "an exposure never uses 127.0.0.x");
        QCOMPARE(m_ea.url, "http://" + m_ea.hostname + "/?lizard_token=" + m_ea.token);
        QCOMPARE(m_ea.port, 8000);
        QVERIFY(m_ea.token.size() >= 32);
        QVERIFY2(m_ea.hostname.section(':', 0, 0) != m_eb.hostname.section(':', 0, 0),
                 "own address per exposure");
        QCOMPARE(m_ea.hostname.section(':', 1, 1),
                 m_eb.hostname.section(':', 1, 1)); // one proxy port
        QVERIFY(m_ea.token != m_eb.token);

        const Exposed again = expose(m_server, m_a, 8000);
        QCOMPARE(again.hostname, m_ea.hostname);
        QCOMPARE(again.token, m_ea.token);
        const Exposed other = expose(m_server, m_a, 8001);
        QCOMPARE(other.token,
                 m_ea.token); // one token per sandbox (the SDK keeps sandbox.accessToken)
        QVERIFY(other.hostname != m_ea.hostname);
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + m_a + "/expose/8001").status, 204);
    }

    void exposeErrors_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        const QString a = "/api/sandboxes/" + m_a;
        QTest::newRow("port 0") << QByteArray("POST") << a + "/expose/0" << 400 << "INVALID_PORT";
        QTest::newRow("port 65536")
            << QByteArray("POST") << a + "/expose/65536" << 400 << "INVALID_PORT";
        QTest::newRow("port abc") << QByteArray("POST") << a + "/expose/abc" << 400
                                  << "INVALID_PORT";
        QTest::newRow("port -1") << QByteArray("POST") << a + "/expose/-1" << 400 << "INVALID_PORT";
        QTest::newRow("unknown sandbox")
            << QByteArray("POST") << "/api/sandboxes/sb_nope/expose/80" << 404 << "NOT_FOUND";
        QTest::newRow("unexpose not exposed")
            << QByteArray("DELETE") << a + "/expose/9" << 404 << "NOT_FOUND";
        QTest::newRow("unexpose unknown sandbox")
            << QByteArray("DELETE") << "/api/sandboxes/sb_nope/expose/80" << 404 << "NOT_FOUND";
    }
    void exposeErrors()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(int, status);
        QFETCH(QString, code);
        const auto r = m_server.request(method, path);
        QVERIFY2(isError(r, status, code), qPrintable(describe(r)));
    }

    void exposeNeedsKey()
    {
        const auto r =
            m_server.request("POST", "/api/sandboxes/" + m_a + "/expose/8000", {}, "liz_wrong");
        QCOMPARE(r.status, 401);
    }

    void tokenPaths_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<int>("status");
        QTest::newRow("header") << "header" << 200;
        QTest::newRow("cookie") << "cookie" << 200;
        QTest::newRow("query redirects") << "query" << 302;
        QTest::newRow("none") << "none" << 401;
        QTest::newRow("wrong header") << "wrong-header" << 401;
        QTest::newRow("wrong cookie") << "wrong-cookie" << 401;
        QTest::newRow("wrong query") << "wrong-query" << 401;
        QTest::newRow("other sandbox's token") << "other-sandbox" << 401;
        QTest::newRow("other sandbox's cookie") << "other-cookie" << 401;
        QTest::newRow("empty header") << "empty-header" << 401;
    }
    void tokenPaths()
    {
        QFETCH(QString, how);
        QFETCH(int, status);
        const QByteArray t = m_ea.token.toLatin1();
        QList<QByteArray> headers;
        QByteArray target = "/headers?x=1";
        if (how == "header")
            headers << tokenHeader(m_ea.token);
        else if (how == "cookie")
            headers << "Cookie: lizard_token=" + t;
        else if (how == "query")
            target = "/headers?x=1&lizard_token=" + t;
        else if (how == "wrong-header")
            headers << tokenHeader(m_ea.token + "x");
        else if (how == "wrong-cookie")
            headers << "Cookie: lizard_token=" + t.left(t.size() - 1);
        else if (how == "wrong-query")
            target = "/headers?lizard_token=nope";
        else if (how == "other-sandbox")
            headers << tokenHeader(m_eb.token);
        else if (how == "other-cookie")
            headers << "Cookie: lizard_token=" + m_eb.token.toLatin1();
        else if (how == "empty-header")
            headers << "X-Lizard-Access-Token: ";
        const RawResponse r = proxyRequest(m_ea.hostname, "GET", target, headers);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.status, status);
        if (status == 401) {
            QVERIFY(r.header("content-type").startsWith("text/html"));
            QVERIFY(!r.body.contains("\"headers\"")); // the sandbox was never asked
        }
        if (status == 302) {
            QCOMPARE(r.header("location"), QByteArray("/headers?x=1"));
            const QByteArray cookie = r.header("set-cookie");
            QVERIFY2(cookie.startsWith("lizard_token=" + t + ";"), cookie.constData());
            QVERIFY(cookie.contains("HttpOnly"));
            QVERIFY(cookie.contains("SameSite=Lax"));
            QVERIFY(cookie.contains("Path=/"));
        }
    }

    void redirectKeepsOtherParameters()
    {
        const QByteArray t = m_ea.token.toLatin1();
        const RawResponse r =
            proxyRequest(m_ea.hostname, "GET", "/p/a%20b?lizard_token=" + t + "&q=%C3%BC&x");
        QCOMPARE(r.status, 302);
        QCOMPARE(r.header("location"), QByteArray("/p/a%20b?q=%C3%BC&x"));
        const RawResponse bare = proxyRequest(m_ea.hostname, "GET", "/?lizard_token=" + t);
        QCOMPARE(bare.header("location"), QByteArray("/"));
    }

    void tokenNeverReachesTheSandbox()
    {
        const QByteArray t = m_ea.token.toLatin1();
        const RawResponse r =
            proxyRequest(m_ea.hostname, "GET", "/headers?x=1&lizard_token=" + t,
                         {tokenHeader(m_ea.token), "Cookie: a=1; lizard_token=" + t + "; b=2"});
        QCOMPARE(r.status, 200); // the header decides; no redirect then
        const QJsonObject echo = QJsonDocument::fromJson(r.body).object();
        QCOMPARE(echo.value("path").toString(), QString("/headers?x=1"));
        QString cookie;
        for (const auto& h : echo.value("headers").toArray()) {
            const QString name = h.toArray().at(0).toString().toLower();
            QVERIFY2(name != "x-lizard-access-token", "the token header reached the sandbox");
            if (name == "cookie")
                cookie = h.toArray().at(1).toString();
            QVERIFY2(!h.toArray().at(1).toString().contains(m_ea.token),
                     "the token reached the sandbox");
        }
        QCOMPARE(cookie, QString("a=1; b=2"));
        QVERIFY(!r.body.contains(t));
    }

    void hostCheck_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<int>("status");
        const QByteArray port = m_ea.hostname.section(':', 1, 1).toLatin1();
        QTest::newRow("own hostname") << m_ea.hostname.toLatin1() << 200;
        QTest::newRow("rebinding name") << "evil.example:" + port << 421;
        QTest::newRow("rebinding name, no port") << QByteArray("evil.example") << 421;
        QTest::newRow("localhost") << "localhost:" + port << 421;
        QTest::newRow("127.0.0.1") << "127.0.0.1:" + port << 421;
        QTest::newRow("another exposure") << m_eb.hostname.toLatin1() << 421;
        QTest::newRow("address without port") << m_ea.hostname.section(':', 0, 0).toLatin1() << 421;
        QTest::newRow("other port") << m_ea.hostname.section(':', 0, 0).toLatin1() + ":1" << 421;
    }
    void hostCheck()
    {
        QFETCH(QByteArray, host);
        QFETCH(int, status);
        const RawResponse r =
            proxyRequest(m_ea.hostname, "GET", "/headers", {tokenHeader(m_ea.token)}, host);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.status, status);
    }

    void absoluteFormTargetIsChecked()
    {
        const RawResponse evil = proxyRequest(m_ea.hostname, "GET", "http://evil.example/headers",
                                              {tokenHeader(m_ea.token)});
        QCOMPARE(evil.status, 421);
        const RawResponse own = proxyRequest(m_ea.hostname, "GET",
                                             "http://" + m_ea.hostname.toLatin1() + "/headers?k=v",
                                             {tokenHeader(m_ea.token)});
        QCOMPARE(own.status, 200);
        QCOMPARE(QJsonDocument::fromJson(own.body).object().value("path").toString(),
                 QString("/headers?k=v"));
    }

    void notExposedAddressIs404()
    {
        // The anchor 127.0.0.1:<proxy port> serves no exposure.
        const RawResponse r = proxyRequest(proxyAnchor(), "GET", "/", {tokenHeader(m_ea.token)});
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.status, 404);
    }

    void everyRequestOnAConnectionIsChecked()
    {
        RawHttp http;
        QVERIFY(http.connectTo(m_ea.hostname.section(':', 0, 0),
                               quint16(m_ea.hostname.section(':', 1, 1).toUInt())));
        const QByteArray host = m_ea.hostname.toLatin1();
        const RawResponse first =
            http.exchange(rawRequest("GET", "/one", host, {tokenHeader(m_ea.token)}, {}, true));
        QCOMPARE(first.status, 200);
        const RawResponse second = http.exchange(rawRequest("GET", "/two", host, {}, {}, true));
        QCOMPARE(second.status, 401);
        const RawResponse third =
            http.exchange(rawRequest("GET", "/three", host, {tokenHeader(m_ea.token)}, {}, true));
        QCOMPARE(third.status, 200);
        QCOMPARE(QJsonDocument::fromJson(third.body).object().value("path").toString(),
                 QString("/three"));
    }

    void commonClients_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("args");
        const QString url = "http://" + m_ea.hostname + "/headers?client=1";
        const QString header = "X-Lizard-Access-Token: " + m_ea.token;
        QTest::newRow("curl") << "curl" << QStringList{"-sS", "--noproxy", "*", "-H", header, url};
        QTest::newRow("python urllib")
            << "python3"
            << QStringList{
                   "-c",
                   "import sys, urllib.request as u; r = u.build_opener(u.ProxyHandler({})).open("
                   "u.Request(sys.argv[1], headers={'X-Lizard-Access-Token': sys.argv[2]})); "
                   "sys.stdout.write(r.read().decode())",
                   url, m_ea.token};
        // A browser-like client: the token URL, its cookie, then the page without the token.
        QTest::newRow("curl with the url and a cookie jar")
            << "curl" << QStringList{"-sS", "-L", "--noproxy", "*", "-c", "/dev/null", m_ea.url};
    }
    void commonClients()
    {
        QFETCH(QString, program);
        QFETCH(QStringList, args);
        if (QStandardPaths::findExecutable(program).isEmpty())
            QSKIP(qPrintable(program + " is not installed"));
        QProcess p;
        p.start(program, args);
        QVERIFY(p.waitForFinished(30000));
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QVERIFY2(out.contains("\"path\""), out.constData());
    }

    void cleanupTestCase()
    {
        for (const QString& id : {m_a, m_b})
            if (!id.isEmpty())
                m_server.request("DELETE", "/api/sandboxes/" + id);
    }
};

QTEST_GUILESS_MAIN(TestProxy)
#include "tst_proxy.moc"
