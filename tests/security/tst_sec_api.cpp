// Escape suite, API: floods against lizard-local's HTTP front from any local process (or a web
// page posting to 127.0.0.1). Each attempt asserts the contained outcome (401 before a body is
// read, a deadline cut, 400, 503, bounded server memory, the API still answering) beside a
// harmless control that must succeed. The server runs with short deadlines (LIZARD_HTTP_LIMITS)
// so that every case ends in seconds; the production values are in server/http/limits.h.
#include "sec_api_support.h"
#include "server/proxy_support.h"

#include <QJsonDocument>
#include <future>
#include <vector>

using namespace lizard::test;

namespace {

// idle and header differ so that the tests can tell which deadline cut a connection.
constexpr char kLimits[] = "idleMs=3000,headerMs=2000,bodyGraceMs=2000,bodyMinRate=1048576,"
                           "bodyMs=15000,maxConnections=64";
constexpr qint64 kMiB = 1024 * 1024;

QByteArray head(const QByteArray& method, const QByteArray& target, const QByteArray& key,
                qint64 contentLength, const QList<QByteArray>& extra = {})
{
    QByteArray r = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    if (!key.isEmpty())
        r += "X-API-Key: " + key + "\r\n";
    if (contentLength >= 0)
        r += "Content-Type: application/json\r\nContent-Length: " +
             QByteArray::number(contentLength) + "\r\n";
    for (const auto& h : extra)
        r += h + "\r\n";
    return r + "\r\n";
}

QByteArray nested(int depth, bool objects)
{
    QByteArray open, close;
    for (int i = 0; i < depth; ++i) {
        open += objects ? "{\"a\":" : "[";
        close += objects ? "}" : "]";
    }
    return open + (objects ? "1" : "") + close;
}

struct UploadOutcome
{
    int status = 0;          // the answer read before any body byte was sent
    QByteArray code;         // its "code"
    qint64 bodyAccepted = 0; // body bytes the kernel took before the server cut the connection
    bool cut = false;
};

// Sends the header of a 120 MB upload without a key, waits for the answer, then tries to send
// the body anyway.
UploadOutcome unauthenticatedUpload(quint16 port, const QByteArray& target, qint64 total)
{
    UploadOutcome out;
    RawConn c;
    if (!c.connectTo(port) || !c.send(head("POST", target, {}, total)))
        return out;
    QByteArray body;
    out.status = c.readResponse(5000, &body);
    out.code = QJsonDocument::fromJson(body).object().value("code").toString().toUtf8();
    const QByteArray chunk(256 * 1024, 'a');
    while (out.bodyAccepted < total) {
        if (!c.send(chunk, 5000)) {
            out.cut = true;
            break;
        }
        out.bodyAccepted += chunk.size();
    }
    return out;
}

} // namespace

class TestSecApi : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_id;
    qint64 m_pid = 0;

    quint16 port() const { return quint16(m_server.port()); }
    QByteArray key() const { return m_server.apiKey().toUtf8(); }
    bool apiAnswers() const
    {
        return m_server.request("GET", "/api/sandboxes/" + m_id).status == 200;
    }
    LocalServer::Response exec(const QByteArray& body) const
    {
        return m_server.request("POST", "/api/sandboxes/" + m_id + "/exec", body);
    }

private slots:
    void initTestCase()
    {
        qputenv("LIZARD_HTTP_LIMITS", kLimits);
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        // Without the short limits the deadline cases would not mean what they say.
        const QByteArray log = m_server.log();
        QVERIFY2(log.contains("adjusted by LIZARD_HTTP_LIMITS"), log.constData());
        m_pid = serverProcessPid(m_server);
        QVERIFY2(m_pid > 0 && rssKb(m_pid) > 0, "cannot find lizard-local's pid");
        QString why;
        m_id = createSandbox(m_server, {}, &why);
        QVERIFY2(!m_id.isEmpty(), qPrintable(why));
        // The port proxy cases talk to this echo server on port 8080 of the sandbox.
        QVERIFY2(startSandboxServer(m_server, m_id, 8080, &why), qPrintable(why));
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_server.request("DELETE", "/api/sandboxes/" + m_id);
        qunsetenv("LIZARD_HTTP_LIMITS");
    }

    // 8 clients announce 120 MB each without a key: each gets 401 before sending a byte of its
    // body, the server never buffers the bodies, and it answers keyed requests meanwhile.
    void unauthenticatedLargeBodiesAreNeverRead()
    {
        const QByteArray target = ("/api/sandboxes/" + m_id + "/files").toUtf8();
        RssWatch rss(m_pid);
        std::vector<std::future<UploadOutcome>> clients;
        for (int i = 0; i < 8; ++i)
            clients.push_back(
                std::async(std::launch::async, unauthenticatedUpload, port(), target, 120 * kMiB));
        QThread::msleep(300);
        QElapsedTimer t;
        t.start();
        QVERIFY2(apiAnswers(), "a keyed request during the flood was not answered");
        qInfo("keyed request during the flood answered in %lld ms", t.elapsed());
        for (auto& f : clients) {
            const UploadOutcome o = f.get();
            QCOMPARE(o.status, 401);
            QCOMPARE(o.code, QByteArray("UNAUTHORIZED"));
            QVERIFY2(o.cut && o.bodyAccepted < 100 * kMiB,
                     qPrintable(QString("the server took %1 MiB of an unauthenticated body")
                                    .arg(o.bodyAccepted / kMiB)));
        }
        qInfo("server RSS %lld MiB before, peak %lld MiB", rss.baselineKb() / 1024,
              rss.peakKb() / 1024);
        QVERIFY2(rss.growthMb() < 32,
                 qPrintable(QString("RSS grew by %1 MiB").arg(rss.growthMb())));
        QVERIFY(apiAnswers());
    }

    // The same without waiting: header and body in one go, as a web page's fetch() sends it.
    void unauthenticatedBlindUploadGets401()
    {
        RssWatch rss(m_pid);
        auto blind = [this] {
            RawConn c;
            if (!c.connectTo(port()))
                return 0;
            const QByteArray target = ("/api/sandboxes/" + m_id + "/files").toUtf8();
            c.send(head("POST", target, {}, 120 * kMiB));
            const QByteArray chunk(256 * 1024, 'a');
            for (qint64 sent = 0; sent < 120 * kMiB; sent += chunk.size())
                if (!c.send(chunk, 5000))
                    break;
            return c.readResponse(5000);
        };
        std::vector<std::future<int>> clients;
        for (int i = 0; i < 8; ++i)
            clients.push_back(std::async(std::launch::async, blind));
        for (auto& f : clients)
            QCOMPARE(f.get(), 401);
        QVERIFY2(rss.growthMb() < 32,
                 qPrintable(QString("RSS grew by %1 MiB").arg(rss.growthMb())));
        QVERIFY(apiAnswers());
    }

    // Control: a keyed 96 MiB upload (the size the desktop app allows) still goes through.
    void keyedLargeUploadWorks()
    {
        const QByteArray prefix = "{\"path\":\"/tmp/big.txt\",\"content\":\"";
        const qint64 contentSize = 96 * kMiB - 64 - prefix.size();
        const QByteArray body = prefix + QByteArray(contentSize, 'x') + "\"}";
        QElapsedTimer t;
        t.start();
        const auto r = m_server.request("POST", "/api/sandboxes/" + m_id + "/files", body);
        QVERIFY2(r.status == 204, qPrintable(describe(r)));
        qInfo("96 MiB upload took %lld ms", t.elapsed());
        const auto s = exec(toJson({{"cmd", "stat -c %s /tmp/big.txt; rm -f /tmp/big.txt"}}));
        QCOMPARE(jsonObject(s).value("stdout").toString().trimmed().toLongLong(), contentSize);
    }

    void deepJsonIsRefused_data()
    {
        QTest::addColumn<bool>("objects");
        QTest::newRow("arrays") << false;
        QTest::newRow("objects") << true;
    }

    // Depth 10000 is 400 INVALID_JSON; depth 64 (the limit) and 10 are accepted.
    void deepJsonIsRefused()
    {
        QFETCH(bool, objects);
        for (const int depth : {10000, 65}) {
            const auto r = exec("{\"cmd\":\"true\",\"x\":" + nested(depth - 1, objects) + "}");
            QVERIFY2(isError(r, 400, "INVALID_JSON"), qPrintable(describe(r)));
            QVERIFY2(r.body.contains("deeper than 64"), r.body.constData());
        }
        for (const int depth : {10, 64}) {
            const auto r = exec("{\"cmd\":\"true\",\"x\":" + nested(depth - 1, objects) + "}");
            QVERIFY2(r.status == 200 && jsonObject(r).value("exitCode").toInt(-1) == 0,
                     qPrintable(QString("depth %1: %2").arg(depth).arg(describe(r))));
        }
    }

    // 10 MB of "[[[[" (where the big body limit applies) is refused without recursion.
    void tenMegabytesOfBracketsAreRefused()
    {
        const auto r = m_server.request("POST", "/api/sandboxes/" + m_id + "/files",
                                        QByteArray(10 * 1000 * 1000, '['));
        QVERIFY2(isError(r, 400, "INVALID_JSON"), qPrintable(describe(r)));
        QVERIFY(apiAnswers());
    }

    // A new connection that sends nothing is closed at the header deadline (2 s); a keyed
    // client may idle between requests until the idle timeout (3 s). Control: requests 1 s
    // apart keep a connection open far longer than either.
    void idleConnectionsAreClosed()
    {
        RawConn silent;
        QVERIFY(silent.connectTo(port()));
        QElapsedTimer t;
        t.start();
        QVERIFY(apiAnswers());
        silent.waitClosed(10000);
        QVERIFY2(silent.closed() && t.elapsed() >= 1500 && t.elapsed() < 6000,
                 qPrintable(QString("silent connection: closed %1 after %2 ms")
                                .arg(silent.closed())
                                .arg(t.elapsed())));

        RawConn idle;
        QVERIFY(idle.connectTo(port()));
        QVERIFY(idle.send(head("GET", "/api/regions", key(), -1)));
        QCOMPARE(idle.readResponse(5000), 200);
        t.restart();
        QVERIFY(idle.waitClosed(10000) >= 0);
        QVERIFY2(t.elapsed() >= 2500 && t.elapsed() < 7000,
                 qPrintable(QString("idle keep-alive closed after %1 ms").arg(t.elapsed())));

        RawConn busy;
        QVERIFY(busy.connectTo(port()));
        for (int i = 0; i < 6; ++i) {
            QVERIFY(busy.send(head("GET", "/api/regions", key(), -1)));
            QCOMPARE(busy.readResponse(5000), 200);
            QThread::msleep(1000);
        }
        QVERIFY(!busy.closed());
    }

    // Headers trickled a byte every 250 ms are cut at the header deadline (2 s).
    void slowlorisHeaderIsCut()
    {
        RawConn slow;
        QVERIFY(slow.connectTo(port()));
        QElapsedTimer t;
        t.start();
        QVERIFY(slow.send("GET /api/regions HTTP/1.1\r\nX-API-Key: " + key() + "\r\nX-Pad: "));
        while (!slow.closed() && t.elapsed() < 15000) {
            if (!slow.send("a"))
                break;
            slow.readSome(250);
        }
        QVERIFY2(t.elapsed() < 6000, qPrintable(QString("cut after %1 ms").arg(t.elapsed())));
        QVERIFY(!slow.in().contains("200 OK"));
        QVERIFY(apiAnswers());

        // Control: a header in two pieces, 500 ms apart.
        RawConn two;
        QVERIFY(two.connectTo(port()));
        const QByteArray h = head("GET", "/api/regions", key(), -1);
        QVERIFY(two.send(h.left(20)));
        QThread::msleep(500);
        QVERIFY(two.send(h.mid(20)));
        QCOMPARE(two.readResponse(5000), 200);
    }

    // A keyed body trickled a byte every 250 ms falls below the minimum rate once the grace
    // (2 s) is over and is cut; the control sends its body in two halves 500 ms apart.
    void slowlorisBodyIsCut()
    {
        QByteArray body = toJson({{"cmd", "true"}});
        body += QByteArray(1000 - body.size(), ' ');
        const QByteArray target = ("/api/sandboxes/" + m_id + "/exec").toUtf8();
        RawConn slow;
        QVERIFY(slow.connectTo(port()));
        QVERIFY(slow.send(head("POST", target, key(), body.size())));
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < body.size() && !slow.closed() && t.elapsed() < 15000; ++i) {
            if (!slow.send(body.mid(i, 1)))
                break;
            slow.readSome(250);
        }
        QVERIFY2(t.elapsed() >= 1500 && t.elapsed() < 6000,
                 qPrintable(QString("cut after %1 ms").arg(t.elapsed())));
        QVERIFY(!slow.in().contains("200 OK"));

        RawConn control;
        QVERIFY(control.connectTo(port()));
        QVERIFY(control.send(head("POST", target, key(), body.size()) + body.left(500)));
        QThread::msleep(500);
        QVERIFY(control.send(body.mid(500)));
        QCOMPARE(control.readResponse(10000), 200);
    }

    // A body above the minimum rate still ends at the total deadline (15 s here).
    void bodyTotalDeadline()
    {
        const QByteArray target = ("/api/sandboxes/" + m_id + "/files").toUtf8();
        RawConn steady;
        QVERIFY(steady.connectTo(port()));
        QVERIFY(steady.send(head("POST", target, key(), 100 * kMiB)));
        QElapsedTimer t;
        t.start();
        const QByteArray step(256 * 1024, ' '); // 2 MiB/s: twice the minimum rate
        for (int i = 0; !steady.closed() && t.elapsed() < 30000; ++i) {
            if (!steady.send(step, 2000))
                break;
            const qint64 due = (i + 1) * 125;
            if (due > t.elapsed())
                steady.readSome(int(due - t.elapsed()));
        }
        QVERIFY2(t.elapsed() >= 13000 && t.elapsed() < 22000,
                 qPrintable(QString("cut after %1 ms").arg(t.elapsed())));
        QVERIFY(apiAnswers());
    }

    // 200 connections against a cap of 64: those over it get 503 TOO_MANY_CONNECTIONS, the
    // server survives, and it serves again once the flood ends. Connections to the port proxy
    // do not count against the API's cap.
    void connectionFloodIsCapped()
    {
        std::vector<std::unique_ptr<RawConn>> flood;
        for (int i = 0; i < 200; ++i) {
            auto c = std::make_unique<RawConn>();
            QVERIFY(c->connectTo(port()));
            flood.push_back(std::move(c));
        }
        int refused = 0;
        for (auto& c : flood) {
            c->readSome(50);
            if (c->in().startsWith("HTTP/1.1 503") && c->in().contains("TOO_MANY_CONNECTIONS"))
                ++refused;
        }
        QVERIFY2(refused >= 100, qPrintable(QString("%1 of 200 refused").arg(refused)));
        QVERIFY(rssKb(m_pid) > 0);
        flood.clear();
        QTRY_VERIFY_WITH_TIMEOUT(apiAnswers(), 5000);

        QString why;
        const Exposed e = expose(m_server, m_id, 8080, &why);
        QVERIFY2(!e.hostname.isEmpty(), qPrintable(why));
        QVERIFY(waitUntilServing(e));
        const QByteArray address = e.hostname.section(':', 0, 0).toLatin1();
        const quint16 proxyPort = quint16(e.hostname.section(':', 1).toUInt());
        for (int i = 0; i < 100; ++i) {
            auto c = std::make_unique<RawConn>();
            QVERIFY(c->connectTo(proxyPort, address.constData()));
            flood.push_back(std::move(c));
        }
        QVERIFY2(apiAnswers(), "100 proxy connections blocked the API");
    }

    // The port proxy wants exactly one Host: two or none are 400; one correct Host works.
    void proxyWantsExactlyOneHost()
    {
        QString why;
        const Exposed e = expose(m_server, m_id, 8080, &why);
        QVERIFY2(!e.hostname.isEmpty(), qPrintable(why));
        QVERIFY(waitUntilServing(e));
        const QByteArray host = e.hostname.toLatin1();
        const QByteArray token = tokenHeader(e.token);
        auto send = [&](const QByteArray& raw) {
            RawHttp http;
            if (!http.connectTo(e.hostname.section(':', 0, 0),
                                quint16(e.hostname.section(':', 1).toUInt())))
                return RawResponse{};
            return http.exchange(raw, 10000);
        };
        const QByteArray tail = token + "\r\nConnection: close\r\n\r\n";
        QCOMPARE(
            send("GET /headers HTTP/1.1\r\nHost: " + host + "\r\nHost: " + host + "\r\n" + tail)
                .status,
            400);
        QCOMPARE(
            send("GET /headers HTTP/1.1\r\nHost: " + host + "\r\nHost: evil.example\r\n" + tail)
                .status,
            400);
        QCOMPARE(send("GET /headers HTTP/1.1\r\n" + tail).status, 400);
        QCOMPARE(send("GET /headers HTTP/1.0\r\n" + tail).status, 400);
        const RawResponse ok = send("GET /headers HTTP/1.1\r\nHost: " + host + "\r\n" + tail);
        QVERIFY2(ok.status == 200 && ok.body.contains("\"path\": \"/headers\""),
                 ok.body.constData());
    }

    // Every socket lizard-local listens on is in 127.0.0.0/8: the API on 127.0.0.1, the
    // proxy's anchor and each exposure's address (none on 0.0.0.0 or IPv6).
    void listensOnLoopbackOnly()
    {
        QString why;
        const Exposed e = expose(m_server, m_id, 8080, &why);
        QVERIFY2(!e.hostname.isEmpty(), qPrintable(why));
        const QStringList listening = listeningAddresses(m_pid);
        const QString api = QStringLiteral("127.0.0.1:%1").arg(port());
        QVERIFY2(listening.contains(api) && listening.contains(e.hostname),
                 qPrintable(listening.join(' ')));
        for (const QString& address : listening)
            QVERIFY2(address.startsWith("127."), qPrintable(listening.join(' ')));
    }

    // An exec stream that stays quiet longer than the idle timeout and the header deadline
    // is not idle: it is answered in full.
    void quietExecStreamIsNotIdle()
    {
        const QByteArray body = toJson({{"cmd", "sleep 5; echo done"}});
        RawConn reader;
        QVERIFY(reader.connectTo(port()));
        QVERIFY(reader.send(head("POST", ("/api/sandboxes/" + m_id + "/exec").toUtf8(), key(),
                                 body.size(), {"Accept: text/event-stream"}) +
                            body));
        QElapsedTimer t;
        t.start();
        while (!reader.closed() && !reader.in().contains("\r\n0\r\n\r\n") && t.elapsed() < 20000)
            reader.readSome(500);
        QVERIFY2(reader.in().contains("\"line\":\"done\"") &&
                     reader.in().contains("\"exitCode\":0"),
                 reader.in().constData());
        QVERIFY(t.elapsed() >= 4500);
    }

    // 1 GB of exec output to a reader that stalls: the server holds back (backpressure), its
    // memory stays bounded, and the stream then completes with exit code 0.
    void execStreamToSlowReaderIsBounded()
    {
        const QString program = "import sys\n"
                                "w = sys.stdout.buffer.write\n"
                                "line = b'a' * 999 + b'\\n'\n"
                                "for _ in range(1024):\n"
                                "    w(line * 1024)\n";
        const QByteArray body =
            toJson({{"cmd", QJsonArray{"python3", "-c", program}}, {"timeoutMs", 600000}});
        RawConn reader;
        QVERIFY(reader.connectTo(port(), "127.0.0.1", 64 * 1024));
        QVERIFY(reader.send(head("POST", ("/api/sandboxes/" + m_id + "/exec").toUtf8(), key(),
                                 body.size(), {"Accept: text/event-stream"}) +
                            body));
        QTRY_VERIFY_WITH_TIMEOUT((reader.readSome(100), reader.in().contains("\r\n\r\n")), 20000);
        QVERIFY2(reader.in().startsWith("HTTP/1.1 200"), reader.in().left(300).constData());
        {
            RssWatch rss(m_pid);
            QThread::sleep(5); // read nothing: the command must be held back, not buffered
            QVERIFY(apiAnswers());
            qInfo("stalled reader: server RSS %lld MiB before, peak %lld MiB",
                  rss.baselineKb() / 1024, rss.peakKb() / 1024);
            QVERIFY2(rss.growthMb() < 32,
                     qPrintable(QString("RSS grew by %1 MiB").arg(rss.growthMb())));
        }
        RssWatch rss(m_pid);
        qint64 received = reader.in().size();
        QElapsedTimer t;
        t.start();
        while (!reader.closed() && !reader.tail().endsWith("\r\n0\r\n\r\n") && t.elapsed() < 240000)
            reader.readSome(1000, false, &received);
        qInfo("streamed %lld MiB in %lld ms, server RSS peak +%lld MiB", received / kMiB,
              t.elapsed(), rss.growthMb());
        QVERIFY2(reader.tail().contains("\"exitCode\":0"), reader.tail().constData());
        QVERIFY(received > 1024 * 1000 * 1000);
        QVERIFY2(rss.growthMb() < 32,
                 qPrintable(QString("RSS grew by %1 MiB").arg(rss.growthMb())));
        QVERIFY(apiAnswers());
    }
};

QTEST_GUILESS_MAIN(TestSecApi)
#include "tst_sec_api.moc"
