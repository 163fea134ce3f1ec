// Escape suite, API connections: idle and slowloris connections are cut by their deadlines,
// a keyless connection flood cannot lock the key holder out, keyed connections meet a cap
// (503) and the server serves again afterwards, so does the port proxy with its own cap, the
// port proxy wants exactly one Host,
// everything listens on loopback only, and exec streams (quiet ones, and 1 GB to a stalled
// reader) live as long as they need to in bounded memory. Each attempt sits beside a harmless
// control that must succeed. Bodies: tst_sec_api.cpp.
#include "sec_api_support.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <future>
#include <vector>

using namespace lizard::test;

class TestSecApiConn : public QObject
{
    Q_OBJECT

    SecApiFixture m_f;

private slots:
    void initTestCase()
    {
        QString why;
        QVERIFY2(m_f.start(&why), qPrintable(why));
    }
    void cleanupTestCase() { m_f.stop(); }

    // A new connection that sends nothing is closed at the header deadline (2 s); a keyed
    // client may idle between requests until the idle timeout (3 s). Control: requests 1 s
    // apart keep a connection open far longer than either.
    void idleConnectionsAreClosed()
    {
        RawConn silent;
        QVERIFY(silent.connectTo(m_f.port()));
        QElapsedTimer t;
        t.start();
        QVERIFY(m_f.apiAnswers());
        silent.waitClosed(10000);
        QVERIFY2(silent.closed() && t.elapsed() >= 1500 && t.elapsed() < 6000,
                 qPrintable(QString("silent connection: closed %1 after %2 ms")
                                .arg(silent.closed())
                                .arg(t.elapsed())));

        RawConn idle;
        QVERIFY(idle.connectTo(m_f.port()));
        QVERIFY(idle.send(requestHead("GET", "/api/regions", m_f.key(), -1)));
        QCOMPARE(idle.readResponse(5000), 200);
        t.restart();
        QVERIFY(idle.waitClosed(10000) >= 0);
        QVERIFY2(t.elapsed() >= 2500 && t.elapsed() < 7000,
                 qPrintable(QString("idle keep-alive closed after %1 ms").arg(t.elapsed())));

        RawConn busy;
        QVERIFY(busy.connectTo(m_f.port()));
        for (int i = 0; i < 6; ++i) {
            QVERIFY(busy.send(requestHead("GET", "/api/regions", m_f.key(), -1)));
            QCOMPARE(busy.readResponse(5000), 200);
            QThread::msleep(1000);
        }
        QVERIFY(!busy.closed());
    }

    // Headers trickled a byte every 250 ms are cut at the header deadline (2 s).
    void slowlorisHeaderIsCut()
    {
        RawConn slow;
        QVERIFY(slow.connectTo(m_f.port()));
        QElapsedTimer t;
        t.start();
        QVERIFY(slow.send("GET /api/regions HTTP/1.1\r\nX-API-Key: " + m_f.key() + "\r\nX-Pad: "));
        while (!slow.closed() && t.elapsed() < 15000) {
            if (!slow.send("a"))
                break;
            slow.readSome(250);
        }
        QVERIFY2(t.elapsed() < 6000, qPrintable(QString("cut after %1 ms").arg(t.elapsed())));
        QVERIFY(!slow.in().contains("200 OK"));
        QVERIFY(m_f.apiAnswers());

        // Control: a header in two pieces, 500 ms apart.
        RawConn two;
        QVERIFY(two.connectTo(m_f.port()));
        const QByteArray h = requestHead("GET", "/api/regions", m_f.key(), -1);
        QVERIFY(two.send(h.left(20)));
        QThread::msleep(500);
        QVERIFY(two.send(h.mid(20)));
        QCOMPARE(two.readResponse(5000), 200);
    }

    // 200 keyless connections against a cap of 64: the oldest keyless ones make room for
    // newcomers (long before their header deadline), so the key holder still gets in while the
    // flood is open; the server serves on once it ends. Connections to the port proxy do not
    // count against the API's cap.
    void keylessFloodCannotLockOutTheKey()
    {
        std::vector<std::unique_ptr<RawConn>> flood;
        for (int i = 0; i < 200; ++i) {
            auto c = std::make_unique<RawConn>();
            QVERIFY(c->connectTo(m_f.port()));
            flood.push_back(std::move(c));
        }
        QVERIFY2(m_f.apiAnswers(), "the key holder was locked out by 200 keyless connections");
        QElapsedTimer t;
        t.start();
        int closed = 0;
        for (auto& c : flood)
            closed += c->waitClosed(qMax(0, 1000 - int(t.elapsed()))) >= 0 ? 1 : 0;
        QVERIFY2(closed >= 100, qPrintable(QString("%1 of 200 closed within 1 s").arg(closed)));
        for (auto& c : flood)
            QVERIFY(c->in().isEmpty()); // closed without an answer: they never sent a request
        flood.clear();
        QVERIFY(m_f.apiAnswers());

        QString why;
        const Exposed e = expose(m_f.server, m_f.id, 8080, &why);
        QVERIFY2(!e.hostname.isEmpty(), qPrintable(why));
        QVERIFY(waitUntilServing(e));
        const QByteArray address = e.hostname.section(':', 0, 0).toLatin1();
        const quint16 proxyPort = quint16(e.hostname.section(':', 1).toUInt());
        for (int i = 0; i < 100; ++i) {
            auto c = std::make_unique<RawConn>();
            QVERIFY(c->connectTo(proxyPort, address.constData()));
            flood.push_back(std::move(c));
        }
        QVERIFY2(m_f.apiAnswers(), "100 proxy connections blocked the API");
    }

    // When every connection up to the cap has shown the key, one more gets 503
    // TOO_MANY_CONNECTIONS at once; the server serves again once they close.
    void keyedConnectionsAreCapped()
    {
        std::vector<std::unique_ptr<RawConn>> held;
        for (int i = 0; i < 70; ++i) {
            auto c = std::make_unique<RawConn>();
            QVERIFY(c->connectTo(m_f.port()));
            QVERIFY(c->send(requestHead("GET", "/api/regions", m_f.key(), -1)));
            const int status = c->readResponse(5000);
            QVERIFY2(status == 200 || (i >= 60 && status == 503),
                     qPrintable(QString::number(status)));
            held.push_back(std::move(c));
        }
        for (int i = 0; i < 20; ++i) {
            RawConn over;
            QVERIFY(over.connectTo(m_f.port()));
            QByteArray body;
            QCOMPARE(over.readResponse(2000, &body), 503);
            QVERIFY2(body.contains("TOO_MANY_CONNECTIONS"), body.constData());
        }
        QVERIFY(rssKiB(m_f.pid) > 0);
        held.clear();
        QTRY_VERIFY_WITH_TIMEOUT(m_f.apiAnswers(), 5000);
    }

    // The port proxy has its own cap (32 here). 100 silent connections to an exposure: the
    // oldest idle ones make room, so a browser still gets its page while they are open. When
    // all 32 are busy (each in the middle of sending a request body), one more gets 503 at
    // once; the proxy serves again once they close.
    void proxyConnectionsAreCapped()
    {
        QString why;
        const Exposed e = expose(m_f.server, m_f.id, 8080, &why);
        QVERIFY2(!e.hostname.isEmpty(), qPrintable(why));
        QVERIFY(waitUntilServing(e));
        const QByteArray address = e.hostname.section(':', 0, 0).toLatin1();
        const quint16 port = quint16(e.hostname.section(':', 1).toUInt());
        const QByteArray head = "POST /echo HTTP/1.1\r\nHost: " + e.hostname.toLatin1() + "\r\n" +
                                tokenHeader(e.token) + "\r\nContent-Length: 1000000\r\n\r\n";
        auto page = [&] {
            RawHttp http;
            if (!http.connectTo(QString::fromLatin1(address), port))
                return RawResponse{};
            return http.exchange("GET /headers HTTP/1.1\r\nHost: " + e.hostname.toLatin1() +
                                     "\r\n" + tokenHeader(e.token) +
                                     "\r\nConnection: close\r\n\r\n",
                                 10000);
        };

        std::vector<std::unique_ptr<RawConn>> silent;
        for (int i = 0; i < 100; ++i) {
            auto c = std::make_unique<RawConn>();
            QVERIFY(c->connectTo(port, address.constData()));
            silent.push_back(std::move(c));
        }
        QCOMPARE(page().status, 200);
        int closed = 0;
        for (auto& c : silent)
            closed += c->waitClosed(50) >= 0 ? 1 : 0;
        QVERIFY2(closed >= 60,
                 qPrintable(QString("%1 of 100 silent connections closed").arg(closed)));
        silent.clear();

        std::vector<std::unique_ptr<RawConn>> busy;
        for (int i = 0; i < 32; ++i) {
            auto c = std::make_unique<RawConn>();
            QVERIFY(c->connectTo(port, address.constData()));
            QVERIFY(c->send(head + QByteArray(1000, 'x')));
            busy.push_back(std::move(c));
        }
        // Once every header is read, all 32 are busy relaying a body and the next connection
        // is refused. How soon depends on the host's load: wait for the first refusal (a
        // connection still let in meanwhile is closed again, which gives its place back).
        bool refused = false;
        for (QDeadlineTimer until(20000); !refused && !until.hasExpired();) {
            RawConn probe;
            QVERIFY(probe.connectTo(port, address.constData()));
            QByteArray ignored;
            refused = probe.readResponse(500, &ignored) == 503;
        }
        // Never refused: a busy connection was taken for an idle one and made room.
        QVERIFY2(refused, "32 connections sending bodies, and new ones were still let in");
        for (int i = 0; i < 5; ++i) {
            RawConn over;
            QVERIFY(over.connectTo(port, address.constData()));
            QByteArray body;
            QCOMPARE(over.readResponse(2000, &body), 503);
            QVERIFY2(body.contains("Too many connections"), body.constData());
        }
        for (auto& c : busy)
            QVERIFY2(!c->closed(), "a busy proxy connection was cut to make room");
        busy.clear();
        QTRY_COMPARE_WITH_TIMEOUT(page().status, 200, 5000);
    }

    // The port proxy wants exactly one Host: two or none are 400; one correct Host works.
    void proxyWantsExactlyOneHost()
    {
        QString why;
        const Exposed e = expose(m_f.server, m_f.id, 8080, &why);
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
        const Exposed e = expose(m_f.server, m_f.id, 8080, &why);
        QVERIFY2(!e.hostname.isEmpty(), qPrintable(why));
        const QStringList listening = listeningAddresses(m_f.pid);
        const QString api = QStringLiteral("127.0.0.1:%1").arg(m_f.port());
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
        QVERIFY(reader.connectTo(m_f.port()));
        QVERIFY(reader.send(requestHead("POST", ("/api/sandboxes/" + m_f.id + "/exec").toUtf8(),
                                        m_f.key(), body.size(), {"Accept: text/event-stream"}) +
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
        QVERIFY(reader.connectTo(m_f.port(), "127.0.0.1", 64 * 1024));
        QVERIFY(reader.send(requestHead("POST", ("/api/sandboxes/" + m_f.id + "/exec").toUtf8(),
                                        m_f.key(), body.size(), {"Accept: text/event-stream"}) +
                            body));
        QTRY_VERIFY_WITH_TIMEOUT((reader.readSome(100), reader.in().contains("\r\n\r\n")), 20000);
        QVERIFY2(reader.in().startsWith("HTTP/1.1 200"), reader.in().left(300).constData());
        {
            RssWatch rss(m_f.pid);
            QThread::sleep(5); // read nothing: the command must be held back, not buffered
            QVERIFY(m_f.apiAnswers());
            qInfo("stalled reader: server RSS %lld MiB before, peak %lld MiB",
                  rss.baselineKb() / 1024, rss.peakKb() / 1024);
            QVERIFY2(rss.growthMb() < 32,
                     qPrintable(QString("RSS grew by %1 MiB").arg(rss.growthMb())));
        }
        RssWatch rss(m_f.pid);
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
        QVERIFY(m_f.apiAnswers());
    }
};

QTEST_GUILESS_MAIN(TestSecApiConn)
#include "tst_sec_api_conn.moc"
