// CurlMulti + CurlTransfer against a local test HTTP server: the Qt event loop drives libcurl,
// nothing blocks, streams arrive incrementally, and every transfer can be cancelled or deleted
// from its own handlers.

#include "client/curlmulti.h"
#include "client/curltransfer.h"
#include "minihttpserver.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <memory>
#include <optional>

using lizard::client::CurlMulti;
using lizard::client::CurlTransfer;
using lizard::client::HttpRequest;
using lizard::client::HttpResponse;
using lizard::test::MiniHttpServer;
using lizard::test::MiniResponse;

class TestCurlMulti : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void simpleGet();
    void postSendsBodyAndHeaders();
    void concurrentTransfersRunInParallel();
    void eventLoopKeepsTickingDuringSlowAnswer();
    void streamArrivesIncrementally();
    void errorStatusKeepsBodyInStreamingMode();
    void cancelFromDataHandler();
    void deleteFromDataHandler();
    void cancelRightAfterStart();
    void handlerStartsAnotherTransfer();
    void connectionRefused();
    void transferTimeout();
    void destroyingMultiAbandonsTransfers();
    void handlerDestroysTheMulti();
    void proxyFromEnvironmentIsHonoured();
    void redirectsAreNotFollowed();

private:
    HttpRequest get(const QByteArray& path) const
    {
        HttpRequest r;
        r.url = m_server->url() + path;
        r.timeoutMs = 20000;
        return r;
    }

    std::unique_ptr<MiniHttpServer> m_server;
    std::unique_ptr<CurlMulti> m_multi;
};

void TestCurlMulti::init()
{
    m_server = std::make_unique<MiniHttpServer>();
    QVERIFY(m_server->listen());
    m_multi = std::make_unique<CurlMulti>();
}

void TestCurlMulti::cleanup()
{
    m_multi.reset();
    m_server.reset();
}

void TestCurlMulti::simpleGet()
{
    m_server->route("/hello", {200, {"X-Thing: yes"}, "hello world"});
    CurlTransfer t(get("/hello?x=1"));
    std::optional<HttpResponse> got;
    t.setFinishHandler([&](const HttpResponse& r) { got = r; });
    QVERIFY(t.start(m_multi.get()));
    QVERIFY(t.isRunning());
    QVERIFY(!got); // never synchronous: the transfer starts from the event loop
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->status, 200);
    QCOMPARE(got->curlCode, 0);
    QCOMPARE(got->body, QByteArray("hello world"));
    QCOMPARE(got->header("x-thing"), QByteArray("yes"));
    QCOMPARE(got->reason, QByteArray("Canned"));
    QVERIFY(!t.isRunning());
    QCOMPARE(m_multi->runningCount(), 0);
    QCOMPARE(m_server->requests().value(0).target, QByteArray("/hello?x=1"));
}

void TestCurlMulti::postSendsBodyAndHeaders()
{
    m_server->route("/echo", {201, {}, "{}"});
    HttpRequest r = get("/echo");
    r.method = "PATCH";
    r.hasBody = true;
    r.body = QByteArray(300000,
                        'x'); // large enough that curl would otherwise ask "Expect: 100-continue"
    r.headers = {"X-API-Key: liz_test", "Content-Type: application/json"};
    CurlTransfer t(r);
    std::optional<HttpResponse> got;
    t.setFinishHandler([&](const HttpResponse& resp) { got = resp; });
    QVERIFY(t.start(m_multi.get()));
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->status, 201);
    const auto seen = m_server->requests().value(0);
    QCOMPARE(seen.method, QByteArray("PATCH"));
    QCOMPARE(seen.headers.value("x-api-key"), QByteArray("liz_test"));
    QVERIFY(!seen.headers.contains("expect"));
    QCOMPARE(seen.body.size(), 300000);
}

void TestCurlMulti::concurrentTransfersRunInParallel()
{
    m_server->route("/slow", {200, {}, "slow", {}, 0, 400});
    std::vector<std::unique_ptr<CurlTransfer>> transfers;
    int done = 0;
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < 12; ++i) {
        transfers.push_back(std::make_unique<CurlTransfer>(get("/slow")));
        transfers.back()->setFinishHandler([&](const HttpResponse& r) {
            QCOMPARE(r.status, 200);
            ++done;
        });
        QVERIFY(transfers.back()->start(m_multi.get()));
    }
    QCOMPARE(m_multi->runningCount(), 12);
    QTRY_COMPARE_WITH_TIMEOUT(done, 12, 10000);
    QVERIFY2(clock.elapsed() < 12 * 400 / 2, qPrintable(QString::number(clock.elapsed())));
}

void TestCurlMulti::eventLoopKeepsTickingDuringSlowAnswer()
{
    m_server->route("/slow", {200, {}, "late", {}, 0, 1000});
    QElapsedTimer clock;
    clock.start();
    qint64 lastTick = 0;
    qint64 longestGap = 0;
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, this, [&] {
        longestGap = std::max(longestGap, clock.elapsed() - lastTick);
        lastTick = clock.elapsed();
        ++ticks;
    });
    ticker.start(10);
    CurlTransfer t(get("/slow"));
    bool finished = false;
    t.setFinishHandler([&](const HttpResponse&) { finished = true; });
    QVERIFY(t.start(m_multi.get()));
    QTRY_VERIFY_WITH_TIMEOUT(finished, 10000);
    QVERIFY2(ticks >= 10 && longestGap < 500,
             qPrintable(QStringLiteral("%1 ticks, longest gap %2 ms").arg(ticks).arg(longestGap)));
}

void TestCurlMulti::streamArrivesIncrementally()
{
    m_server->route(
        "/stream",
        {200, {"Content-Type: text/event-stream"}, {}, {"one\n", "two\n", "three\n"}, 150});
    HttpRequest r = get("/stream");
    r.streaming = true;
    CurlTransfer t(r);
    QList<QByteArray> chunks;
    QList<qint64> at;
    QElapsedTimer clock;
    clock.start();
    std::optional<HttpResponse> got;
    t.setDataHandler([&](const QByteArray& c) {
        chunks.append(c);
        at.append(clock.elapsed());
    });
    t.setFinishHandler([&](const HttpResponse& resp) { got = resp; });
    QVERIFY(t.start(m_multi.get()));
    QTRY_VERIFY(got.has_value());
    QCOMPARE(chunks.join(), QByteArray("one\ntwo\nthree\n"));
    QCOMPARE(chunks.size(), 3); // each arrived on its own, not buffered to the end
    QVERIFY(at[2] - at[0] >= 200);
    QVERIFY(got->body.isEmpty()); // streamed bytes are not kept twice
}

void TestCurlMulti::errorStatusKeepsBodyInStreamingMode()
{
    m_server->route("/bad",
                    {401, {"Content-Type: application/json"}, R"({"error":"UNAUTHORIZED"})"});
    HttpRequest r = get("/bad");
    r.streaming = true;
    CurlTransfer t(r);
    int dataCalls = 0;
    std::optional<HttpResponse> got;
    t.setDataHandler([&](const QByteArray&) { ++dataCalls; });
    t.setFinishHandler([&](const HttpResponse& resp) { got = resp; });
    QVERIFY(t.start(m_multi.get()));
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->status, 401);
    QCOMPARE(got->body, QByteArray(R"({"error":"UNAUTHORIZED"})"));
    QCOMPARE(dataCalls, 0);
}

void TestCurlMulti::cancelFromDataHandler()
{
    MiniResponse endless{200, {}, {}, {"a\n", "b\n"}, 50};
    endless.neverEnd = true;
    m_server->route("/endless", endless);
    HttpRequest r = get("/endless");
    r.streaming = true;
    CurlTransfer t(r);
    int dataCalls = 0;
    bool finished = false;
    t.setDataHandler([&](const QByteArray&) {
        ++dataCalls;
        t.cancel();
    });
    t.setFinishHandler([&](const HttpResponse&) { finished = true; });
    QSignalSpy hungUp(m_server.get(), &MiniHttpServer::clientHungUp);
    QVERIFY(t.start(m_multi.get()));
    QVERIFY(hungUp.wait(5000));
    QTest::qWait(200);
    QCOMPARE(dataCalls, 1);
    QVERIFY(!finished);
    QCOMPARE(m_multi->runningCount(), 0);
}

void TestCurlMulti::deleteFromDataHandler()
{
    MiniResponse endless{200, {}, {}, {"a\n", "b\n", "c\n"}, 30};
    endless.neverEnd = true;
    m_server->route("/endless", endless);
    HttpRequest r = get("/endless");
    r.streaming = true;
    auto* t = new CurlTransfer(r);
    int dataCalls = 0;
    t->setDataHandler([&](const QByteArray&) {
        ++dataCalls;
        delete t; // the handler owns the last reference: deleting here must be safe
    });
    QSignalSpy hungUp(m_server.get(), &MiniHttpServer::clientHungUp);
    QVERIFY(t->start(m_multi.get()));
    QVERIFY(hungUp.wait(5000));
    QCOMPARE(dataCalls, 1);
    QCOMPARE(m_multi->runningCount(), 0);
}

void TestCurlMulti::cancelRightAfterStart()
{
    m_server->route("/hello", {200, {}, "hi"});
    CurlTransfer t(get("/hello"));
    bool finished = false;
    t.setFinishHandler([&](const HttpResponse&) { finished = true; });
    QVERIFY(t.start(m_multi.get()));
    t.cancel();
    QVERIFY(!t.isRunning());
    QVERIFY(!t.start(m_multi.get())); // a cancelled transfer does not restart
    QTest::qWait(300);
    QVERIFY(!finished);
    QCOMPARE(m_multi->runningCount(), 0);
}

void TestCurlMulti::handlerStartsAnotherTransfer()
{
    m_server->route("/hello", {200, {}, "hi"});
    CurlTransfer first(get("/hello"));
    CurlTransfer second(get("/hello"));
    bool secondDone = false;
    first.setFinishHandler([&](const HttpResponse&) { QVERIFY(second.start(m_multi.get())); });
    second.setFinishHandler([&](const HttpResponse& r) { secondDone = r.status == 200; });
    QVERIFY(first.start(m_multi.get()));
    QTRY_VERIFY(secondDone);
}

void TestCurlMulti::connectionRefused()
{
    QTcpServer probe; // find a free port, then close it
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close();
    HttpRequest r;
    r.url = "http://127.0.0.1:" + QByteArray::number(port) + "/x";
    CurlTransfer t(r);
    std::optional<HttpResponse> got;
    t.setFinishHandler([&](const HttpResponse& resp) { got = resp; });
    QVERIFY(t.start(m_multi.get()));
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->status, 0);
    QCOMPARE(got->curlCode, int(CURLE_COULDNT_CONNECT));
    QVERIFY(!got->curlError.isEmpty());
}

void TestCurlMulti::transferTimeout()
{
    m_server->route("/slow", {200, {}, "late", {}, 0, 3000});
    HttpRequest r = get("/slow");
    r.timeoutMs = 300;
    CurlTransfer t(r);
    std::optional<HttpResponse> got;
    t.setFinishHandler([&](const HttpResponse& resp) { got = resp; });
    QElapsedTimer clock;
    clock.start();
    QVERIFY(t.start(m_multi.get()));
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->curlCode, int(CURLE_OPERATION_TIMEDOUT));
    QVERIFY(clock.elapsed() < 2500);
}

void TestCurlMulti::destroyingMultiAbandonsTransfers()
{
    m_server->route("/slow", {200, {}, "late", {}, 0, 2000});
    CurlTransfer t(get("/slow"));
    std::optional<HttpResponse> got;
    t.setFinishHandler([&](const HttpResponse& resp) { got = resp; });
    QVERIFY(t.start(m_multi.get()));
    QTest::qWait(100);
    m_multi.reset();
    QVERIFY(got.has_value());
    QVERIFY(got->cancelled);
    QVERIFY(!t.isRunning());
}

void TestCurlMulti::handlerDestroysTheMulti()
{
    m_server->route("/hello", {200, {}, "hi"});
    m_server->route("/slow", {200, {}, "late", {}, 0, 2000});
    CurlTransfer quick(get("/hello"));
    CurlTransfer slow(get("/slow"));
    bool quickDone = false;
    std::optional<HttpResponse> slowGot;
    quick.setFinishHandler([&](const HttpResponse&) {
        quickDone = true;
        m_multi.reset(); // from inside the multi's own event handling
    });
    slow.setFinishHandler([&](const HttpResponse& r) { slowGot = r; });
    QVERIFY(quick.start(m_multi.get()));
    QVERIFY(slow.start(m_multi.get()));
    QTRY_VERIFY(quickDone);
    QVERIFY(slowGot.has_value());
    QVERIFY(slowGot->cancelled);
    QVERIFY(!slow.isRunning());
}

void TestCurlMulti::proxyFromEnvironmentIsHonoured()
{
    // The test server plays the proxy: it receives the absolute URL as the request target.
    m_server->route("http://api.example.invalid/hello", {200, {}, "via proxy"});
    m_server->route("/local", {200, {}, "direct"});
    qputenv("http_proxy", m_server->url());
    qunsetenv("no_proxy");
    HttpRequest r;
    r.url = "http://api.example.invalid/hello";
    CurlTransfer viaProxy(r);
    std::optional<HttpResponse> got;
    viaProxy.setFinishHandler([&](const HttpResponse& resp) { got = resp; });
    QVERIFY(viaProxy.start(m_multi.get()));
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->body, QByteArray("via proxy"));

    // A loopback server (lizard-local) is always reached directly. Point the proxy at a dead
    // port to prove it is not used.
    qputenv("http_proxy", "http://127.0.0.1:9");
    CurlTransfer direct(get("/local"));
    got.reset();
    direct.setFinishHandler([&](const HttpResponse& resp) { got = resp; });
    QVERIFY(direct.start(m_multi.get()));
    QTRY_VERIFY(got.has_value());
    qunsetenv("http_proxy");
    QCOMPARE(got->body, QByteArray("direct"));
}

void TestCurlMulti::redirectsAreNotFollowed()
{
    m_server->route("/moved", {301, {"Location: /elsewhere"}, "moved"});
    m_server->route("/elsewhere", {200, {}, "should not be fetched"});
    CurlTransfer t(get("/moved"));
    std::optional<HttpResponse> got;
    t.setFinishHandler([&](const HttpResponse& resp) { got = resp; });
    QVERIFY(t.start(m_multi.get()));
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->status, 301);
    QCOMPARE(m_server->requests().size(), 1);
}

QTEST_GUILESS_MAIN(TestCurlMulti)
#include "tst_curlmulti.moc"
