// LizardApi's call semantics against a test-only HTTP server (no lizard-local needed): what
// goes on the wire, PendingCall lifetime and context objects, cancellation, and how ExecStream
// batches and orders SSE events.

#include "client/lizardapi.h"
#include "minihttpserver.h"

#include <QPointer>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <memory>
#include <optional>

using namespace lizard::client;
using lizard::test::MiniHttpServer;
using lizard::test::MiniResponse;

namespace {
MiniResponse json(int status, const QByteArray& body)
{
    return {status, {"Content-Type: application/json"}, body};
}
MiniResponse sse(const QList<QByteArray>& chunks, int intervalMs = 100)
{
    return {200, {"Content-Type: text/event-stream"}, {}, chunks, intervalMs};
}
} // namespace

class TestCallSemantics : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void sendsWhatTheSdkSends();
    void encodesIdsAndPaths();
    void callDeletesItselfAfterFinishing();
    void destroyedContextMeansNoCallback();
    void cancelReportsCancelled();
    void destroyingApiCancelsCalls();
    void callbackDestroysApi();
    void wrongAnswerTypeIsProtocolError();
    void httpErrorsAreMapped();
    void invalidRawMethod();
    void largeListingIsParsedOffTheEventLoop();
    void listingErrorsAreMappedOffThread();
    void cancelledListingReportsCancelled();
    void execStreamBatchesInOrder();
    void execStreamErrorEvent();
    void execStreamEndsWithoutExitCode();
    void execStreamPlainJsonAnswer();
    void execStreamHttpError();
    void execStreamCancel();

private:
    std::unique_ptr<MiniHttpServer> m_server;
    std::unique_ptr<LizardApi> m_api;
};

void TestCallSemantics::init()
{
    m_server = std::make_unique<MiniHttpServer>();
    QVERIFY(m_server->listen());
    m_api = std::make_unique<LizardApi>(
        Endpoint{QString::fromLatin1(m_server->url()) + "/", "liz_key"});
}

void TestCallSemantics::cleanup()
{
    m_api.reset();
    m_server.reset();
}

void TestCallSemantics::sendsWhatTheSdkSends()
{
    m_server->route("/api/sandboxes", json(200, R"({"sandboxId":"sb_1","template":"base"})"));
    CreateSandboxRequest req;
    req.projectId = QStringLiteral("p1");
    std::optional<Outcome<SandboxInfo>> got;
    m_api->createSandbox(req, this, [&](Outcome<SandboxInfo> o) { got = std::move(o); });
    QTRY_VERIFY(got.has_value());
    QVERIFY(got->ok());
    QCOMPARE(got->value().sandboxId, QStringLiteral("sb_1"));
    const auto seen = m_server->requests().value(0);
    QCOMPARE(seen.method, QByteArray("POST"));
    QCOMPARE(seen.target, QByteArray("/api/sandboxes"));
    QCOMPARE(seen.headers.value("x-api-key"), QByteArray("liz_key"));
    QCOMPARE(seen.headers.value("content-type"), QByteArray("application/json"));
    QCOMPARE(seen.headers.value("user-agent"), QByteArray("lizard-desktop/0.1.0"));
    QCOMPARE(seen.body, QByteArray(R"({"projectId":"p1","template":"base","timeoutMs":300000})"));
}

void TestCallSemantics::encodesIdsAndPaths()
{
    m_server->route("/api/sandboxes/sb%2F..%2Fx/files",
                    {200, {"Content-Type: application/octet-stream"}, "bytes"});
    std::optional<Outcome<QByteArray>> got;
    m_api->readFile(QStringLiteral("sb/../x"), QString::fromUtf8("/w/a b&c=d+é.txt"), this,
                    [&](Outcome<QByteArray> o) { got = std::move(o); });
    QTRY_VERIFY(got.has_value());
    QVERIFY(got->ok());
    QCOMPARE(got->value(), QByteArray("bytes"));
    QCOMPARE(m_server->requests().value(0).target,
             QByteArray("/api/sandboxes/sb%2F..%2Fx/files?path=%2Fw%2Fa%20b%26c%3Dd%2B%C3%A9.txt"));
}

void TestCallSemantics::callDeletesItselfAfterFinishing()
{
    m_server->route("/api/projects", json(200, "[]"));
    bool called = false;
    QPointer<PendingCall> call = m_api->listProjects(this, [&](Outcome<QList<Project>> o) {
        QVERIFY(o.ok());
        called = true;
    });
    QSignalSpy finished(call.data(), &PendingCall::finished);
    QTRY_VERIFY(called);
    QCOMPARE(finished.count(), 1);
    QTRY_VERIFY(call.isNull());
}

void TestCallSemantics::destroyedContextMeansNoCallback()
{
    m_server->route("/api/projects", {200, {}, "[]", {}, 0, 500});
    auto* ctx = new QObject;
    bool called = false;
    QPointer<PendingCall> call =
        m_api->listProjects(ctx, [&](Outcome<QList<Project>>) { called = true; });
    QSignalSpy seen(m_server.get(), &MiniHttpServer::requestSeen);
    QVERIFY(seen.wait(5000));
    delete ctx;
    QVERIFY(call.isNull()); // the call died with its context
    QSignalSpy hungUp(m_server.get(), &MiniHttpServer::clientHungUp);
    QVERIFY(hungUp.count() > 0 || hungUp.wait(3000)); // and the connection was dropped
    QTest::qWait(700);
    QVERIFY(!called);
}

void TestCallSemantics::cancelReportsCancelled()
{
    m_server->route("/api/projects", {200, {}, "[]", {}, 0, 2000});
    std::optional<Outcome<QList<Project>>> got;
    QPointer<PendingCall> call =
        m_api->listProjects(this, [&](Outcome<QList<Project>> o) { got = std::move(o); });
    call->cancel();
    QVERIFY(!got.has_value()); // reported from the event loop, not inside cancel()
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->error().kind, ApiError::Kind::Cancelled);
    QTRY_VERIFY(call.isNull());
}

void TestCallSemantics::destroyingApiCancelsCalls()
{
    m_server->route("/api/projects", {200, {}, "[]", {}, 0, 2000});
    std::optional<Outcome<QList<Project>>> got;
    m_api->listProjects(this, [&](Outcome<QList<Project>> o) { got = std::move(o); });
    QTest::qWait(50);
    m_api.reset();
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->error().kind, ApiError::Kind::Cancelled);
}

void TestCallSemantics::callbackDestroysApi()
{
    m_server->route("/api/projects", json(200, "[]"));
    m_server->route("/api/sandboxes", {200, {}, "[]", {}, 0, 2000});
    std::optional<Outcome<QList<SandboxInfo>>> other;
    m_api->listSandboxes({}, this, [&](Outcome<QList<SandboxInfo>> o) { other = std::move(o); });
    bool called = false;
    m_api->listProjects(this, [&](Outcome<QList<Project>> o) {
        QVERIFY(o.ok());
        called = true;
        m_api.reset(); // e.g. a dialog that owns its LizardApi closes in the callback
    });
    QTRY_VERIFY(called);
    QTRY_VERIFY(other.has_value());
    QCOMPARE(other->error().kind, ApiError::Kind::Cancelled);
}

void TestCallSemantics::wrongAnswerTypeIsProtocolError()
{
    m_server->route("/api/projects", json(200, R"([{"id": 12}])"));
    std::optional<Outcome<QList<Project>>> got;
    m_api->listProjects(nullptr, [&](Outcome<QList<Project>> o) { got = std::move(o); });
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->error().kind, ApiError::Kind::Protocol);
    QCOMPARE(got->error().httpStatus, 200);
    QCOMPARE(got->error().what, QStringLiteral("List projects"));
}

void TestCallSemantics::httpErrorsAreMapped()
{
    MiniResponse limited =
        json(429, R"({"error":"SANDBOX_LIMIT","message":"5 running","limit":5,"running":5})");
    limited.headers.append("Retry-After: 17");
    m_server->route("/api/sandboxes", limited);
    std::optional<Outcome<SandboxInfo>> got;
    m_api->createSandbox({}, this, [&](Outcome<SandboxInfo> o) { got = std::move(o); });
    QTRY_VERIFY(got.has_value());
    const ApiError& e = got->error();
    QCOMPARE(e.kind, ApiError::Kind::RateLimit);
    QCOMPARE(e.code, QStringLiteral("SANDBOX_LIMIT"));
    QCOMPARE(e.retryAfterS, 17);
    QCOMPARE(e.limit, 5);
    QCOMPARE(e.toDisplayString(),
             QStringLiteral("Create sandbox failed: 429 SANDBOX_LIMIT: 5 running (retry in 17 s)"));
}

void TestCallSemantics::invalidRawMethod()
{
    std::optional<Outcome<QByteArray>> got;
    m_api->rawJson("GET\r\nX-Evil: 1", QStringLiteral("/api/x"), {}, this,
                   [&](Outcome<QByteArray> o) { got = std::move(o); });
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->error().kind, ApiError::Kind::InvalidRequest);
    QVERIFY(m_server->requests().isEmpty());
}

void TestCallSemantics::largeListingIsParsedOffTheEventLoop()
{
    constexpr int kEntries = 20000;
    QByteArray body = "[";
    for (int i = 0; i < kEntries; ++i) {
        if (i > 0)
            body += ',';
        body +=
            QStringLiteral(
                R"({"name":"f%1","path":"/d/f%1","type":"file","size":%1,"modTime":1700000000000})")
                .arg(i)
                .toUtf8();
    }
    body += ']';
    m_server->route("/api/sandboxes/sb_1/files/list", json(200, body));
    std::optional<Outcome<QList<FileEntry>>> got;
    QThread* calledOn = nullptr;
    m_api->listDir(QStringLiteral("sb_1"), QStringLiteral("/d"), this,
                   [&](Outcome<QList<FileEntry>> o) {
                       calledOn = QThread::currentThread();
                       got = std::move(o);
                   });
    QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 10000);
    QVERIFY(got->ok());
    QCOMPARE(calledOn, QThread::currentThread()); // the caller's thread, as for every call
    QCOMPARE(got->value().size(), kEntries);
    QCOMPARE(got->value().last().path, QStringLiteral("/d/f19999"));
    QCOMPARE(got->value().last().size, qint64(19999));
}

void TestCallSemantics::listingErrorsAreMappedOffThread()
{
    m_server->route(
        "/api/sandboxes/sb_1/files/list",
        json(404, R"({"code":"NOT_FOUND","error":"NOT_FOUND","message":"/nope: No such file"})"));
    std::optional<Outcome<QList<FileEntry>>> got;
    m_api->listDir(QStringLiteral("sb_1"), QStringLiteral("/nope"), this,
                   [&](Outcome<QList<FileEntry>> o) { got = std::move(o); });
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->error().kind, ApiError::Kind::NotFound);
    QCOMPARE(got->error().httpStatus, 404);

    m_server->route("/api/sandboxes/sb_1/files/list", json(200, R"({"not":"a list"})"));
    got.reset();
    m_api->listDir(QStringLiteral("sb_1"), QStringLiteral("/d"), this,
                   [&](Outcome<QList<FileEntry>> o) { got = std::move(o); });
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->error().kind, ApiError::Kind::Protocol);
    QCOMPARE(got->error().httpStatus, 200);
}

void TestCallSemantics::cancelledListingReportsCancelled()
{
    m_server->route("/api/sandboxes/sb_1/files/list", {200, {}, "[]", {}, 0, 2000});
    std::optional<Outcome<QList<FileEntry>>> got;
    QPointer<PendingCall> call =
        m_api->listDir(QStringLiteral("sb_1"), QStringLiteral("/d"), this,
                       [&](Outcome<QList<FileEntry>> o) { got = std::move(o); });
    call->cancel();
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->error().kind, ApiError::Kind::Cancelled);
    QTRY_VERIFY(call.isNull());
}

void TestCallSemantics::execStreamBatchesInOrder()
{
    m_server->route("/api/sandboxes/sb_1/exec",
                    sse({"data: {\"pid\":42}\n\ndata: {\"stream\":\"stdout\",\"line\":\"a\"}\n\n"
                         "data: {\"stream\":\"stderr\",\"line\":\"b\"}\n\ndata: "
                         "{\"stream\":\"stdout\",\"line\":\"c\"}\n\n",
                         ": comment\n\ndata: {\"stream\":\"stdout\",\"line\":\"d\"}\n\ndata: "
                         "{\"stream\":\"stdout\",\"li",
                         "ne\":\"\xC3", "\xA9\"}\n\ndata: {\"exitCode\":7}\n\n"}));
    std::unique_ptr<ExecStream> s(
        m_api->execStream(QStringLiteral("sb_1"), QStringLiteral("echo"), {}));
    QStringList log;
    connect(s.get(), &ExecStream::started, this,
            [&](int pid) { log << QStringLiteral("pid %1").arg(pid); });
    connect(s.get(), &ExecStream::output, this, [&](const QList<OutputLine>& lines) {
        QStringList batch;
        for (const OutputLine& l : lines)
            batch << (l.stream == OutputStream::Stderr ? "err:" : "out:") + l.text;
        log << batch.join(QLatin1Char(','));
    });
    connect(s.get(), &ExecStream::exited, this,
            [&](int code) { log << QStringLiteral("exit %1").arg(code); });
    connect(s.get(), &ExecStream::failed, this,
            [&](const ApiError& e) { log << "failed " + e.toDisplayString(); });
    QTRY_VERIFY(log.contains(QStringLiteral("exit 7")));
    QTest::qWait(100);
    QCOMPARE(log, QStringList({"pid 42", "out:a,err:b,out:c", "out:d", QString::fromUtf8("out:é"),
                               "exit 7"}));
    const auto seen = m_server->requests().value(0);
    QCOMPARE(seen.headers.value("accept"), QByteArray("text/event-stream"));
    QCOMPARE(seen.body, QByteArray(R"({"cmd":"echo","pidEvent":true,"timeoutMs":60000})"));
}

void TestCallSemantics::execStreamErrorEvent()
{
    m_server->route("/api/sandboxes/sb_1/exec",
                    sse({"data: {\"stream\":\"stdout\",\"line\":\"x\"}\n\nevent: error\ndata: "
                         "{\"error\":\"SANDBOX_GONE\","
                         "\"message\":\"the sandbox stopped\"}\n\n"}));
    std::unique_ptr<ExecStream> s(m_api->execStreamArgv(QStringLiteral("sb_1"), {"true"}, {}));
    QSignalSpy output(s.get(), &ExecStream::output);
    QSignalSpy failed(s.get(), &ExecStream::failed);
    QVERIFY(failed.wait(5000));
    QCOMPARE(output.count(), 1);
    const auto e = failed.at(0).at(0).value<ApiError>();
    QCOMPARE(e.code, QStringLiteral("SANDBOX_GONE"));
    QCOMPARE(e.message, QStringLiteral("the sandbox stopped"));
}

void TestCallSemantics::execStreamEndsWithoutExitCode()
{
    m_server->route("/api/sandboxes/sb_1/exec",
                    sse({"data: {\"stream\":\"stdout\",\"line\":\"x\"}\n\n"}));
    std::unique_ptr<ExecStream> s(
        m_api->execStream(QStringLiteral("sb_1"), QStringLiteral("x"), {}));
    QSignalSpy failed(s.get(), &ExecStream::failed);
    QSignalSpy exited(s.get(), &ExecStream::exited);
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.at(0).at(0).value<ApiError>().kind, ApiError::Kind::Protocol);
    QCOMPARE(exited.count(), 0);
}

void TestCallSemantics::execStreamPlainJsonAnswer()
{
    m_server->route("/api/sandboxes/sb_1/exec",
                    json(200, R"({"stdout":"a\nb\n","stderr":"c","exitCode":2})"));
    std::unique_ptr<ExecStream> s(
        m_api->execStream(QStringLiteral("sb_1"), QStringLiteral("x"), {}));
    QSignalSpy output(s.get(), &ExecStream::output);
    QSignalSpy exited(s.get(), &ExecStream::exited);
    QVERIFY(exited.wait(5000));
    QCOMPARE(exited.at(0).at(0).toInt(), 2);
    QCOMPARE(output.count(), 1);
    const auto lines = output.at(0).at(0).value<QList<OutputLine>>();
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[1].text, QStringLiteral("b"));
    QCOMPARE(lines[2].stream, OutputStream::Stderr);
}

void TestCallSemantics::execStreamHttpError()
{
    m_server->route("/api/sandboxes/sb_1/exec",
                    json(404, R"({"error":"NOT_FOUND","message":"no sandbox sb_1"})"));
    std::unique_ptr<ExecStream> s(
        m_api->execStream(QStringLiteral("sb_1"), QStringLiteral("x"), {}));
    QSignalSpy failed(s.get(), &ExecStream::failed);
    QVERIFY(failed.wait(5000));
    const auto e = failed.at(0).at(0).value<ApiError>();
    QCOMPARE(e.kind, ApiError::Kind::NotFound);
    QCOMPARE(e.message, QStringLiteral("no sandbox sb_1"));
}

void TestCallSemantics::execStreamCancel()
{
    MiniResponse endless =
        sse({"data: {\"pid\":1}\n\n", "data: {\"stream\":\"stdout\",\"line\":\"tick\"}\n\n"}, 50);
    endless.neverEnd = true;
    m_server->route("/api/sandboxes/sb_1/exec", endless);
    std::unique_ptr<ExecStream> s(
        m_api->execStream(QStringLiteral("sb_1"), QStringLiteral("x"), {}));
    QSignalSpy failed(s.get(), &ExecStream::failed);
    QSignalSpy hungUp(m_server.get(), &MiniHttpServer::clientHungUp);
    connect(s.get(), &ExecStream::output, s.get(),
            [&] { s->cancel(); }); // cancel from inside a slot
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.at(0).at(0).value<ApiError>().kind, ApiError::Kind::Cancelled);
    QVERIFY(hungUp.count() > 0 || hungUp.wait(3000));
    QTest::qWait(200);
    QCOMPARE(failed.count(), 1);
}

QTEST_GUILESS_MAIN(TestCallSemantics)
#include "tst_callsemantics.moc"
