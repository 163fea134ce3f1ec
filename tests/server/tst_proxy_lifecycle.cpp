// Exposures over time: nothing listening yet, unexpose, a paused sandbox, a server restart,
// the end of the sandbox, and sandboxes without internet access.
#include "proxy_support.h"

#include <QTcpServer>

using namespace lizard::test;

namespace {

bool refused(const QString& hostname)
{
    RawHttp http;
    return !http.connectTo(hostname.section(':', 0, 0),
                           quint16(hostname.section(':', 1, 1).toUInt()), 3000) &&
           http.socket().error() == QAbstractSocket::ConnectionRefusedError;
}

bool waitRefused(const QString& hostname, int timeoutMs)
{
    return waitUntil([&] { return refused(hostname); }, timeoutMs, 200);
}

} // namespace

class TestProxyLifecycle : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_id;
    bool m_hostHasNetwork = false; // sandboxes get internet by default on this host

private slots:
    void initTestCase()
    {
        // A fixed proxy port, so that hostnames stay the same across the restart below (with
        // --port 0 the default proxy port is any free one, chosen at each start).
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const QString proxyPort = QString::number(probe.serverPort());
        probe.close();
        QVERIFY2(m_server.start({"--proxy-port", proxyPort}), qPrintable(m_server.errorString()));
        QString why;
        m_id = createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(m_id, why);
        m_hostHasNetwork = jsonObject(m_server.request("GET", "/api/sandboxes/" + m_id))
                               .value("internetAccess")
                               .toBool();
        QVERIFY2(startSandboxServer(m_server, m_id, 8000, &why), qPrintable(why));
    }

    void nothingListensYet()
    {
        QString why;
        const Exposed e = expose(m_server, m_id, 8009, &why);
        QVERIFY2(!e.token.isEmpty(), qPrintable(why));
        const RawResponse r = proxyRequest(e.hostname, "GET", "/", {tokenHeader(e.token)});
        QCOMPARE(r.status, 502);
        QVERIFY2(r.body.contains("Nothing listens on port 8009"), r.body.constData());
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + m_id + "/expose/8009").status, 204);
    }

    void internetAccessFalseRefuses()
    {
        QString why;
        const QString offline = createSandbox(m_server, {{"internetAccess", false}}, &why);
        LIZ_REQUIRE_SANDBOX(offline, why);
        const auto r = m_server.request("POST", "/api/sandboxes/" + offline + "/expose/8000");
        if (m_hostHasNetwork) {
            QVERIFY2(isError(r, 403, "INTERNET_ACCESS_DISABLED"), qPrintable(describe(r)));
        } else {
            // No sandbox has network here, whatever was asked: the proxy still works (it
            // goes through the agent), so the port is exposed.
            QVERIFY2(r.status == 200, qPrintable(describe(r)));
        }
        m_server.request("DELETE", "/api/sandboxes/" + offline);
    }

    void unexposeEndsAccess()
    {
        const Exposed e = expose(m_server, m_id, 8000);
        QVERIFY(waitUntilServing(e));
        RawHttp open;
        QVERIFY(open.connectTo(e.hostname.section(':', 0, 0),
                               quint16(e.hostname.section(':', 1, 1).toUInt())));
        QCOMPARE(open.exchange(rawRequest("GET", "/", e.hostname.toLatin1(), {tokenHeader(e.token)},
                                          {}, true))
                     .status,
                 200);

        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + m_id + "/expose/8000").status, 204);
        QVERIFY2(refused(e.hostname), "a new connection after unexpose must be refused");
        // The kept-alive connection is closed too: no answer comes on it any more.
        const RawResponse late = open.exchange(
            rawRequest("GET", "/", e.hostname.toLatin1(), {tokenHeader(e.token)}, {}, true), 5000);
        QVERIFY2(late.status == 0 || late.status == 404, qPrintable(QString::number(late.status)));
        const auto again = m_server.request("DELETE", "/api/sandboxes/" + m_id + "/expose/8000");
        QVERIFY(isError(again, 404, "NOT_FOUND"));
    }

    void pausedSandboxAnswers409()
    {
        const Exposed e = expose(m_server, m_id, 8000);
        QVERIFY(waitUntilServing(e));
        const auto pause = m_server.request("POST", "/api/sandboxes/" + m_id + "/pause");
        QVERIFY2(pause.status / 100 == 2, qPrintable(describe(pause)));
        QTRY_COMPARE_WITH_TIMEOUT(jsonObject(m_server.request("GET", "/api/sandboxes/" + m_id))
                                      .value("status")
                                      .toString(),
                                  QString("paused"), 20000);
        const RawResponse r = proxyRequest(e.hostname, "GET", "/", {tokenHeader(e.token)});
        QCOMPARE(r.status, 409);
        QVERIFY(r.header("content-type").startsWith("text/html"));
        QVERIFY2(r.body.contains("paused"), r.body.constData());
        QCOMPARE(proxyRequest(e.hostname, "GET", "/", {}).status, 401); // no hint without the token
        const auto resume = m_server.request("POST", "/api/sandboxes/" + m_id + "/resume");
        QVERIFY2(resume.status / 100 == 2, qPrintable(describe(resume)));
        QVERIFY(waitUntilServing(e));
    }

    void exposuresSurviveARestart()
    {
        const Exposed e = expose(m_server, m_id, 8000);
        QVERIFY(waitUntilServing(e));
        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
        const Exposed after = expose(m_server, m_id, 8000);
        QCOMPARE(after.hostname, e.hostname);
        QCOMPARE(after.token, e.token);
        QVERIFY2(waitUntilServing(e), "the stored exposure did not answer after the restart");
    }

    void exposureEndsWithTheSandbox()
    {
        QString why;
        const QString other = createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(other, why);
        QVERIFY2(startSandboxServer(m_server, other, 8000, &why), qPrintable(why));
        const Exposed e = expose(m_server, other, 8000);
        QVERIFY(waitUntilServing(e));
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + other).status, 204);
        QVERIFY2(waitRefused(e.hostname, 10000), "the exposure outlived its sandbox");
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_server.request("DELETE", "/api/sandboxes/" + m_id);
    }
};

QTEST_GUILESS_MAIN(TestProxyLifecycle)
#include "tst_proxy_lifecycle.moc"
