// The cloud path, offline: the client library over https:// through nginx (TLS, HTTP/2) in
// front of a real lizard-local, with certificate verification on and a test CA configured per
// connection. Sandbox, streaming exec, 5 MB upload and download, runCode, a terminal over wss://
// (direct and through a proxy's tunnel); then the clear errors
// for an untrusted certificate and a wrong host name, an HTTPS proxy (CONNECT) and NO_PROXY, and
// a stream that ends with an error, not a hang, when nginx dies.
//
// The host name lizard-tls.test resolves to 127.0.0.1 through the client's test-only hook
// LIZARD_TEST_RESOLVE (CURLOPT_RESOLVE): a loopback name would bypass any proxy by design, so
// only a real-looking name tests proxying honestly.

#include "client/coderun/codeinterpreter.h"
#include "client/curlmulti.h"
#include "client/curltransfer.h"
#include "client/lizardapi.h"
#include "connectproxy.h"
#include "support/apiwait.h"
#include "support/localserver.h"
#include "support/sandboxpolicy.h"
#include "support/tlsfront.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace lizard::client;
using lizard::test::ApiWaiter;
using lizard::test::waitUntil;

namespace {
const QString kHost = QStringLiteral("lizard-tls.test");
}

class TestTls : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void http2IsNegotiated();
    void createSandbox();
    void execStreamArrivesLineByLine();
    void fastStreamPausesAndResumes();
    void uploadAndDownload5MB();
    void runCodeOverHttps();
    void terminalOverWss();
    void caFromEnvironment();
    void noCaMeansUntrusted();
    void unreadableCaFile();
    void otherHostName();
    void proxyTunnelsAndNoProxyBypasses();
    void httpsProxyIsVerifiedWithTheCaFile();
    void streamFailsWhenNginxDiesThenRetryWorks();

private:
    std::unique_ptr<LizardApi> makeApi(const QString& caFile, int port = 0) const
    {
        const QString url =
            QStringLiteral("https://%1:%2").arg(kHost).arg(port ? port : m_front.port());
        return std::make_unique<LizardApi>(Endpoint{url, m_server.apiKey(), false, caFile});
    }
    static ApiError whoAmIError(LizardApi& api);

    lizard::test::LocalServer m_server;
    lizard::test::TlsFront m_front{kHost};
    std::unique_ptr<LizardApi> m_api; // over https with the test CA
    QString m_sandbox;
    QTemporaryDir m_tmp;
};

void TestTls::initTestCase()
{
    for (const char* name : {"https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy",
                             "NO_PROXY", "LIZARD_CA_BUNDLE"})
        qunsetenv(name);
    if (lizard::test::TlsFront::nginxBinary().isEmpty())
        QFAIL("nginx is not installed: `make test` installs it (scripts/install-deps.sh, "
              "nginx-light); the TLS path cannot be tested without it");
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    QVERIFY2(m_front.start(m_server.port()), qPrintable(m_front.errorString()));
    // Read once per process by the client, so set before its first transfer.
    qputenv("LIZARD_TEST_RESOLVE", m_front.resolveHook());
    m_api = makeApi(m_front.caFile());
}

void TestTls::cleanupTestCase()
{
    if (m_api && !m_sandbox.isEmpty() && m_front.restart())
        lizard::test::killSandbox(*m_api, m_sandbox);
    m_api.reset();
    m_front.stop();
    m_server.stop(); // and it deletes whatever sandbox is left
}

void TestTls::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning().noquote() << "nginx error log (end):\n"
                             << QString::fromUtf8(m_front.errorLog().right(3000))
                             << "\nlizard-local log (end):\n"
                             << QString::fromUtf8(m_server.log().right(3000));
}

ApiError TestTls::whoAmIError(LizardApi& api)
{
    ApiWaiter<WhoAmI> who;
    api.whoAmI(nullptr, who.done());
    if (!who.wait(30000) || who.ok())
        return {};
    return who.error();
}

// libcurl negotiated HTTP/2 over TLS (ALPN), and nginx saw the API's calls as HTTP/2.
void TestTls::http2IsNegotiated()
{
    CurlMulti multi;
    HttpRequest req;
    req.url = QStringLiteral("https://%1:%2/api/auth/me").arg(kHost).arg(m_front.port()).toUtf8();
    req.headers << "X-API-Key: " + m_server.apiKey().toUtf8();
    req.caFile = m_front.caFile();
    CurlTransfer transfer(req);
    std::optional<HttpResponse> answer;
    transfer.setFinishHandler([&](const HttpResponse& r) { answer = r; });
    QVERIFY(transfer.start(&multi));
    QVERIFY(waitUntil([&] { return answer.has_value(); }, 30000));
    QVERIFY2(answer->curlCode == 0, qPrintable(answer->curlError));
    QCOMPARE(answer->status, 200);
    QCOMPARE(answer->httpVersion, long(CURL_HTTP_VERSION_2_0));

    ApiWaiter<WhoAmI> who;
    m_api->whoAmI(nullptr, who.done());
    LIZ_AWAIT_OK(who);
    // nginx logs a request after it answered it, so its line may come a moment later.
    QTRY_VERIFY(m_front.accessLog().contains("HTTP/2.0 GET /api/auth/me 200"));
}

void TestTls::createSandbox()
{
    ApiWaiter<QList<Project>> projects;
    m_api->listProjects(nullptr, projects.done());
    LIZ_AWAIT_OK(projects);
    QVERIFY(!projects.value().isEmpty());
    CreateSandboxRequest req;
    req.projectId = projects.value().first().id;
    req.templateName = QStringLiteral("interpreter"); // runCode needs its kernel
    req.timeoutMs = 1800000;
    QString why;
    m_sandbox = lizard::test::startSandbox(*m_api, req, &why);
    if (m_sandbox.isEmpty())
        LIZ_NO_SANDBOX(why.startsWith(QLatin1String("HTTP 503")), why);
    QTRY_VERIFY(m_front.accessLog().contains("HTTP/2.0 POST /api/sandboxes 20"));
}

// Through nginx with proxy_buffering off, SSE lines arrive while the command still runs.
void TestTls::execStreamArrivesLineByLine()
{
    QVERIFY(!m_sandbox.isEmpty());
    std::unique_ptr<ExecStream> s(
        m_api->execStream(m_sandbox, QStringLiteral("echo first; sleep 3; echo second"), {}));
    QElapsedTimer clock;
    clock.start();
    QStringList lines;
    qint64 firstAt = -1, exitAt = -1;
    int exitCode = -1;
    QString failure;
    connect(s.get(), &ExecStream::output, this, [&](const QList<OutputLine>& batch) {
        if (firstAt < 0)
            firstAt = clock.elapsed();
        for (const OutputLine& l : batch)
            lines << l.text;
    });
    connect(s.get(), &ExecStream::exited, this, [&](int code) {
        exitCode = code;
        exitAt = clock.elapsed();
    });
    connect(s.get(), &ExecStream::failed, this,
            [&](const ApiError& e) { failure = e.toDisplayString(); });
    QVERIFY(waitUntil([&] { return exitAt >= 0 || !failure.isEmpty(); }, 60000));
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QCOMPARE(lines, QStringList({"first", "second"}));
    QCOMPARE(exitCode, 0);
    QVERIFY2(
        exitAt - firstAt >= 2500,
        qPrintable(QStringLiteral("first line at %1 ms, exit at %2 ms").arg(firstAt).arg(exitAt)));
}

// 200,000 lines arrive faster than the client takes them: its flow control pauses the HTTP/2
// stream (CURL_WRITEFUNC_PAUSE) and resumes it, and nothing is lost or reordered.
void TestTls::fastStreamPausesAndResumes()
{
    QVERIFY(!m_sandbox.isEmpty());
    std::unique_ptr<ExecStream> s(m_api->execStream(m_sandbox, QStringLiteral("seq 1 200000"), {}));
    int count = 0;
    bool inOrder = true;
    int exitCode = -1;
    QString failure;
    connect(s.get(), &ExecStream::output, this, [&](const QList<OutputLine>& batch) {
        for (const OutputLine& l : batch)
            inOrder = inOrder && l.text.toInt() == ++count;
    });
    connect(s.get(), &ExecStream::exited, this, [&](int code) { exitCode = code; });
    connect(s.get(), &ExecStream::failed, this,
            [&](const ApiError& e) { failure = e.toDisplayString(); });
    QVERIFY(waitUntil([&] { return exitCode >= 0 || !failure.isEmpty(); }, 120000));
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QCOMPARE(count, 200000);
    QVERIFY(inOrder);
    QCOMPARE(exitCode, 0);
}

void TestTls::uploadAndDownload5MB()
{
    QVERIFY(!m_sandbox.isEmpty());
    QByteArray content(5 * 1024 * 1024, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32*>(content.data()),
                                          content.size() / 4);
    const QString local = m_tmp.filePath(QStringLiteral("up.bin"));
    QFile f(local);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(content) == content.size());
    f.close();

    ApiWaiter<qint64> up;
    m_api->uploadFile(m_sandbox, local, QStringLiteral("/home/user/big.bin"), nullptr, {},
                      up.done());
    LIZ_AWAIT_OK(up);
    QCOMPARE(up.value(), qint64(content.size()));
    const QString back = m_tmp.filePath(QStringLiteral("down.bin"));
    ApiWaiter<qint64> down;
    m_api->downloadFile(m_sandbox, QStringLiteral("/home/user/big.bin"), back, nullptr, {},
                        down.done());
    LIZ_AWAIT_OK(down);
    QFile g(back);
    QVERIFY(g.open(QIODevice::ReadOnly));
    QVERIFY(g.readAll() == content);
    const QByteArray files = "/api/sandboxes/" + m_sandbox.toUtf8() + "/files ";
    QTRY_VERIFY(m_front.accessLog().contains("HTTP/2.0 POST " + files + "20"));
    QTRY_VERIFY(m_front.accessLog().contains("HTTP/2.0 GET " + files + "200"));
}

// The notebook's path: CodeInterpreter (serve stream + files API) over https.
void TestTls::runCodeOverHttps()
{
    QVERIFY(!m_sandbox.isEmpty());
    CodeInterpreter interp(m_api.get(), m_sandbox);
    CodeRun* run = interp.runCode(QStringLiteral("1+1"));
    QVERIFY(waitUntil([run] { return run->isFinished(); }, 180000));
    QVERIFY2(!run->hasFailed(),
             run->hasFailed() ? qPrintable(run->failure()->toDisplayString()) : "");
    QVERIFY(run->execution().success());
    QCOMPARE(run->execution().text(), QStringLiteral("2"));
}

// A terminal's WebSocket through the TLS front (HTTP/1.1 upgrade inside TLS), then through an
// HTTP proxy's CONNECT tunnel: keys go in, the shell's output comes out, the certificate is
// verified on both ways.
void TestTls::terminalOverWss()
{
    QVERIFY(!m_sandbox.isEmpty());
    CreateTerminalRequest req;
    req.shellCmd = QStringLiteral("/bin/sh");
    ApiWaiter<TerminalInfo> made;
    m_api->createTerminal(m_sandbox, req, nullptr, made.done());
    LIZ_AWAIT_OK(made);
    const QString tid = made.value().terminalId;
    // Typed "echo MARKER-$((2+3))" comes back as MARKER-5 (the echoed line has no "-5").
    const auto typeAndSee = [&](LizardApi& api, const QByteArray& marker) {
        std::unique_ptr<TerminalLink> link(api.attachTerminal(m_sandbox, tid, false));
        QByteArray out;
        std::optional<ApiError> failed;
        connect(link.get(), &TerminalLink::output, this, [&out](const QByteArray& b) { out += b; });
        connect(link.get(), &TerminalLink::disconnected, this,
                [&failed](const ApiError& e) { failed = e; });
        if (!waitUntil([&] { return link->isAttached() || failed; }, 30000) || failed) {
            qWarning().noquote() << "attach:" << (failed ? failed->toDisplayString() : "no hello");
            return false;
        }
        link->sendInput("echo " + marker + "-$((2+3))\n");
        const QByteArray expected = marker + "-5";
        const bool seen = waitUntil([&] { return out.contains(expected); }, 30000);
        if (!seen)
            qWarning().noquote() << "output so far:" << out;
        link->detach();
        return seen;
    };
    QVERIFY(typeAndSee(*m_api, "over-wss"));
    QTRY_VERIFY(m_front.accessLog().contains(
        QStringLiteral("HTTP/1.1 GET /api/sandboxes/%1/terminals/%2/attach 101")
            .arg(m_sandbox, tid)
            .toUtf8()));

    lizard::test::ConnectProxy proxy;
    QVERIFY(proxy.listen());
    proxy.addHost(kHost, QStringLiteral("127.0.0.1"));
    qputenv("https_proxy", proxy.url().toUtf8());
    const auto restore = qScopeGuard([] { qunsetenv("https_proxy"); });
    auto viaProxy = makeApi(m_front.caFile());
    QVERIFY(typeAndSee(*viaProxy, "via-proxy"));
    QCOMPARE(proxy.connects(), QStringList{QStringLiteral("%1:%2").arg(kHost).arg(m_front.port())});

    ApiWaiter<Unit> closed;
    m_api->closeTerminal(m_sandbox, tid, nullptr, closed.done());
    LIZ_AWAIT_OK(closed);
}

// No CA in the connection: LIZARD_CA_BUNDLE is the fallback.
void TestTls::caFromEnvironment()
{
    qputenv("LIZARD_CA_BUNDLE", m_front.caFile().toUtf8());
    auto api = makeApi({});
    ApiWaiter<WhoAmI> who;
    api->whoAmI(nullptr, who.done());
    qunsetenv("LIZARD_CA_BUNDLE");
    LIZ_AWAIT_OK(who);
}

void TestTls::noCaMeansUntrusted()
{
    auto api = makeApi({});
    const ApiError e = whoAmIError(*api);
    QCOMPARE(e.kind, ApiError::Kind::Network);
    QCOMPARE(e.code, QStringLiteral("CERTIFICATE_UNTRUSTED"));
    QCOMPARE(e.message,
             QStringLiteral("The server's certificate is not trusted (unable to get local issuer "
                            "certificate). If your organisation uses its own certificate "
                            "authority, choose its certificate in Connections."));
}

void TestTls::unreadableCaFile()
{
    auto api = makeApi(m_tmp.filePath(QStringLiteral("no-such-ca.pem")));
    const ApiError e = whoAmIError(*api);
    QCOMPARE(e.code, QStringLiteral("CA_FILE_UNUSABLE"));
    QVERIFY2(e.message.startsWith(QLatin1String("The CA certificate file cannot be used (")) &&
                 e.message.contains(QLatin1String("no-such-ca.pem")),
             qPrintable(e.message));
}

void TestTls::otherHostName()
{
    auto api = makeApi(m_front.caFile(), m_front.otherHostPort());
    const ApiError e = whoAmIError(*api);
    QCOMPARE(e.code, QStringLiteral("CERTIFICATE_HOST_MISMATCH"));
    QVERIFY2(e.message.startsWith(
                 QLatin1String("The server's certificate is for another host name (")) &&
                 e.message.contains(kHost),
             qPrintable(e.message));
}

// https_proxy: the client tunnels through CONNECT (and still verifies the server's
// certificate end to end); NO_PROXY names a host that goes direct; loopback URLs never use it.
void TestTls::proxyTunnelsAndNoProxyBypasses()
{
    lizard::test::ConnectProxy proxy;
    QVERIFY(proxy.listen());
    proxy.addHost(kHost, QStringLiteral("127.0.0.1"));
    qputenv("https_proxy", proxy.url().toUtf8());
    qputenv("http_proxy", proxy.url().toUtf8());
    const auto restore = qScopeGuard([] {
        for (const char* name : {"https_proxy", "http_proxy", "no_proxy"})
            qunsetenv(name);
    });
    const QString target = QStringLiteral("%1:%2").arg(kHost).arg(m_front.port());

    auto viaProxy = makeApi(m_front.caFile()); // a new LizardApi: no connection to reuse
    ApiWaiter<QList<Project>> listed;
    viaProxy->listProjects(nullptr, listed.done());
    LIZ_AWAIT_OK(listed);
    QCOMPARE(proxy.connects(), QStringList{target});
    QCOMPARE(whoAmIError(*makeApi({})).code,
             QStringLiteral("CERTIFICATE_UNTRUSTED")); // still verified

    proxy.clear();
    qputenv("no_proxy", kHost.toUtf8());
    auto direct = makeApi(m_front.caFile());
    ApiWaiter<QList<Project>> again;
    direct->listProjects(nullptr, again.done());
    LIZ_AWAIT_OK(again);
    LizardApi local(Endpoint{m_server.url(), m_server.apiKey()});
    ApiWaiter<QList<Project>> loopback;
    qunsetenv("no_proxy");
    local.listProjects(nullptr, loopback.done());
    LIZ_AWAIT_OK(loopback);
    QCOMPARE(proxy.connects(), QStringList());
}

// An https:// proxy whose certificate the organisation's CA signed: the connection's CA file
// verifies the proxy too (and, inside the tunnel, the server). Without it the proxy is refused.
void TestTls::httpsProxyIsVerifiedWithTheCaFile()
{
    lizard::test::ConnectProxy proxy;
    QVERIFY(proxy.listenTls(m_front.loopbackCertFile(), m_front.loopbackKeyFile()));
    proxy.addHost(kHost, QStringLiteral("127.0.0.1"));
    QVERIFY(proxy.url().startsWith("https://"));
    qputenv("https_proxy", proxy.url().toUtf8());
    const auto restore = qScopeGuard([] { qunsetenv("https_proxy"); });

    auto viaProxy = makeApi(m_front.caFile());
    ApiWaiter<QList<Project>> listed;
    viaProxy->listProjects(nullptr, listed.done());
    LIZ_AWAIT_OK(listed);
    QCOMPARE(proxy.connects(), QStringList{QStringLiteral("%1:%2").arg(kHost).arg(m_front.port())});

    proxy.clear();
    const ApiError refused = whoAmIError(*makeApi({}));
    QCOMPARE(refused.code, QStringLiteral("CERTIFICATE_UNTRUSTED"));
    QVERIFY2(proxy.connects().isEmpty(),
             "no CONNECT through a proxy whose certificate is not trusted");
}

// nginx dies mid-stream: the stream fails soon (no hang); once nginx is back, a retry works.
void TestTls::streamFailsWhenNginxDiesThenRetryWorks()
{
    QVERIFY(!m_sandbox.isEmpty());
    std::unique_ptr<ExecStream> s(m_api->execStream(
        m_sandbox, QStringLiteral("for i in $(seq 1 600); do echo tick $i; sleep 0.1; done"), {}));
    int lines = 0;
    std::optional<ApiError> failure;
    bool exited = false;
    connect(s.get(), &ExecStream::output, this,
            [&](const QList<OutputLine>& b) { lines += int(b.size()); });
    connect(s.get(), &ExecStream::failed, this, [&](const ApiError& e) { failure = e; });
    connect(s.get(), &ExecStream::exited, this, [&] { exited = true; });
    QVERIFY(waitUntil([&] { return lines >= 3; }, 30000));

    QSignalSpy lost(m_api.get(), &LizardApi::connectionLost); // the app's connection watch hears it
    QElapsedTimer clock;
    clock.start();
    m_front.kill();
    QVERIFY2(waitUntil([&] { return failure.has_value() || exited; }, 15000), "the stream hangs");
    QVERIFY(!exited);
    qInfo("stream failed %lld ms after nginx died: %s", clock.elapsed(),
          qPrintable(failure->toDisplayString()));
    QCOMPARE(failure->kind, ApiError::Kind::Network);
    QCOMPARE(failure->code, QStringLiteral("CONNECTION_LOST"));
    QTRY_COMPARE(lost.size(), 1);

    QVERIFY2(m_front.restart(), qPrintable(m_front.errorString()));
    ApiWaiter<ExecResult> retry;
    m_api->exec(m_sandbox, QStringLiteral("echo back"), {}, nullptr, retry.done());
    LIZ_AWAIT_OK(retry);
    QCOMPARE(retry.value().stdoutText, QStringLiteral("back\n"));
}

QTEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
