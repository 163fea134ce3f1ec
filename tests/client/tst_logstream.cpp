// LizardApi::followLogs against a canned HTTP server: the request (GET .../logs?tail=N with
// Accept: text/event-stream), LogLines parsed from events cut anywhere, the end of the
// stream, a KEY_REVOKED error event, and the clear errors of a server without logs (501, as
// the cloud answers) and of an unknown sandbox (404).
#include "client/lizardapi.h"
#include "client/logstream.h"
#include "minihttpserver.h"

#include <QSignalSpy>
#include <QTest>

using namespace lizard;
using client::ApiError;
using client::LogStream;
using client::SandboxLogLine;
using lizard::test::MiniHttpServer;
using lizard::test::MiniResponse;

namespace {

const QByteArray kPath = "/api/sandboxes/sb_1/logs";

struct Followed
{
    QList<SandboxLogLine> lines;
    int batches = 0;
    bool ended = false;
    std::optional<ApiError> error;
};

} // namespace

class TestLogStream : public QObject
{
    Q_OBJECT

    std::unique_ptr<MiniHttpServer> m_server;
    std::unique_ptr<client::LizardApi> m_api;

    Followed follow(int tail)
    {
        Followed out;
        LogStream* s = m_api->followLogs(QStringLiteral("sb_1"), tail);
        s->setParent(this);
        connect(s, &LogStream::lines, this, [&](const QList<SandboxLogLine>& lines) {
            out.lines += lines;
            ++out.batches;
        });
        connect(s, &LogStream::ended, this, [&] { out.ended = true; });
        connect(s, &LogStream::failed, this, [&](const ApiError& e) { out.error = e; });
        [&] { QTRY_VERIFY_WITH_TIMEOUT(out.ended || out.error, 10000); }();
        delete s;
        return out;
    }

private slots:
    void init()
    {
        m_server = std::make_unique<MiniHttpServer>();
        QVERIFY(m_server->listen());
        m_api = std::make_unique<client::LizardApi>(
            client::Endpoint{QString::fromUtf8(m_server->url()), QStringLiteral("liz_test")});
    }

    void linesThenEnd()
    {
        MiniResponse r;
        r.headers = {"Content-Type: text/event-stream"};
        // Cut mid-line and mid-event, with a comment and a final `end` event.
        r.chunks = {
            ": following\n\nevent: log\nid: 7\nda",
            "ta: {\"level\":\"info\",\"message\":\"created\",\"seq\":7,\"source\":\"lifecycle\","
            "\"ts\":1796130488068}\n\nevent: log\nid: 8\n",
            "data: {\"level\":\"error\",\"message\":\"out of memory: caf\xc3",
            "\xa9\",\"seq\":8,\"source\":\"kernel\",\"ts\":1796130488100}\n\n"
            "event: end\ndata: {\"reason\":\"sandbox ended\"}\n\n"};
        r.chunkIntervalMs = 20;
        m_server->route(kPath, r);
        const Followed f = follow(25);
        QVERIFY2(!f.error, f.error ? qPrintable(f.error->toDisplayString()) : "");
        QVERIFY(f.ended);
        QCOMPARE(f.lines.size(), 2);
        QCOMPARE(f.lines[0].seq, 7);
        QCOMPARE(f.lines[0].ts, 1796130488068);
        QCOMPARE(f.lines[0].level, QStringLiteral("info"));
        QCOMPARE(f.lines[0].source, QStringLiteral("lifecycle"));
        QCOMPARE(f.lines[0].message, QStringLiteral("created"));
        QCOMPARE(f.lines[1].level, QStringLiteral("error"));
        QCOMPARE(f.lines[1].message, QStringLiteral("out of memory: café"));
        const auto seen = m_server->requests();
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen[0].method, QByteArray("GET"));
        QCOMPARE(seen[0].target, kPath + "?tail=25");
        QCOMPARE(seen[0].headers.value("accept"), QByteArray("text/event-stream"));
    }

    void keyRevokedEndsWithAnError()
    {
        MiniResponse r;
        r.headers = {"Content-Type: text/event-stream"};
        r.chunks = {"event: log\nid: 1\ndata: {\"level\":\"info\",\"message\":\"a\",\"ts\":1}\n\n",
                    "event: error\ndata: {\"error\":\"KEY_REVOKED\",\"code\":\"KEY_REVOKED\","
                    "\"message\":\"the API key of this request was revoked\"}\n\n"};
        r.neverEnd = true;
        m_server->route(kPath, r);
        const Followed f = follow(1);
        QCOMPARE(f.lines.size(), 1);
        QVERIFY(f.error);
        QCOMPARE(f.error->code, QStringLiteral("KEY_REVOKED"));
        QVERIFY(!f.ended);
    }

    void serverWithoutLogsSaysSo()
    {
        m_server->route(kPath,
                        MiniResponse{501,
                                     {"Content-Type: application/json"},
                                     R"({"error":"NOT_IMPLEMENTED","code":"NOT_IMPLEMENTED",)"
                                     R"("message":"sandbox logs is not implemented"})"});
        const Followed f = follow(100);
        QVERIFY(f.error);
        QCOMPARE(f.error->httpStatus, 501);
        QCOMPARE(f.error->code, QStringLiteral("LOGS_UNAVAILABLE"));
        QVERIFY2(f.error->message.contains("does not provide sandbox logs"),
                 qPrintable(f.error->message));
        QVERIFY(f.error->toDisplayString().contains("Follow sandbox logs"));
    }

    void unknownSandboxIsNotFound()
    {
        m_server->route(kPath, MiniResponse{404,
                                            {"Content-Type: application/json"},
                                            R"({"error":"NOT_FOUND","code":"NOT_FOUND",)"
                                            R"("message":"sandbox sb_1 not found"})"});
        const Followed f = follow(100);
        QVERIFY(f.error);
        QCOMPARE(f.error->kind, ApiError::Kind::NotFound);
        QVERIFY2(f.error->message.startsWith("the sandbox is not running") &&
                     f.error->message.contains("sb_1 not found"),
                 qPrintable(f.error->message));
    }

    void cancelReportsCancelled()
    {
        MiniResponse r;
        r.headers = {"Content-Type: text/event-stream"};
        r.chunks = {": following\n\n"};
        r.neverEnd = true;
        m_server->route(kPath, r);
        LogStream* s = m_api->followLogs(QStringLiteral("sb_1"), 0);
        QSignalSpy failed(s, &LogStream::failed);
        QTRY_COMPARE(m_server->requests().size(), 1);
        s->cancel();
        QTRY_COMPARE(failed.size(), 1);
        QCOMPARE(failed[0][0].value<ApiError>().kind, ApiError::Kind::Cancelled);
        delete s;
    }
};

QTEST_GUILESS_MAIN(TestLogStream)
#include "tst_logstream.moc"
