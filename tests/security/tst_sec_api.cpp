// Escape suite, API bodies: what a local process (or a web page posting to 127.0.0.1) can make
// lizard-local read. Without the key a body is never read (401 first, memory flat); a keyed
// body has a total deadline and a minimum rate; JSON nests at most 64 deep. Each attempt sits
// beside a harmless control that must succeed. The server runs with short deadlines
// (sec_api_support.h); connections, the proxy and streams: tst_sec_api_conn.cpp.
#include "sec_api_support.h"

#include <QJsonDocument>
#include <future>
#include <vector>

using namespace lizard::test;

namespace {

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
    if (!c.connectTo(port) || !c.send(requestHead("POST", target, {}, total)))
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

    SecApiFixture m_f;

private slots:
    void initTestCase()
    {
        QString why;
        QVERIFY2(m_f.start(&why), qPrintable(why));
    }
    void cleanupTestCase() { m_f.stop(); }

    // 8 clients announce 120 MB each without a key: each gets 401 before sending a byte of its
    // body, the server never buffers the bodies, and it answers keyed requests meanwhile.
    void unauthenticatedLargeBodiesAreNeverRead()
    {
        const QByteArray target = ("/api/sandboxes/" + m_f.id + "/files").toUtf8();
        RssWatch rss(m_f.pid);
        std::vector<std::future<UploadOutcome>> clients;
        for (int i = 0; i < 8; ++i)
            clients.push_back(std::async(std::launch::async, unauthenticatedUpload, m_f.port(),
                                         target, 120 * kMiB));
        QThread::msleep(300);
        QElapsedTimer t;
        t.start();
        QVERIFY2(m_f.apiAnswers(), "a keyed request during the flood was not answered");
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
        QVERIFY(m_f.apiAnswers());
    }

    // The same without waiting: header and body in one go, as a web page's fetch() sends it.
    void unauthenticatedBlindUploadGets401()
    {
        RssWatch rss(m_f.pid);
        auto blind = [this] {
            RawConn c;
            if (!c.connectTo(m_f.port()))
                return 0;
            const QByteArray target = ("/api/sandboxes/" + m_f.id + "/files").toUtf8();
            c.send(requestHead("POST", target, {}, 120 * kMiB));
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
        QVERIFY(m_f.apiAnswers());
    }

    // Control: a keyed 96 MiB upload (the size the desktop app allows) still goes through.
    void keyedLargeUploadWorks()
    {
        const QByteArray prefix = "{\"path\":\"/tmp/big.txt\",\"content\":\"";
        const qint64 contentSize = 96 * kMiB - 64 - prefix.size();
        const QByteArray body = prefix + QByteArray(contentSize, 'x') + "\"}";
        QElapsedTimer t;
        t.start();
        const auto r = m_f.server.request("POST", "/api/sandboxes/" + m_f.id + "/files", body);
        QVERIFY2(r.status == 204, qPrintable(describe(r)));
        qInfo("96 MiB upload took %lld ms", t.elapsed());
        const auto s = m_f.exec(toJson({{"cmd", "stat -c %s /tmp/big.txt; rm -f /tmp/big.txt"}}));
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
            const auto r = m_f.exec("{\"cmd\":\"true\",\"x\":" + nested(depth - 1, objects) + "}");
            QVERIFY2(isError(r, 400, "INVALID_JSON"), qPrintable(describe(r)));
            QVERIFY2(r.body.contains("deeper than 64"), r.body.constData());
        }
        for (const int depth : {10, 64}) {
            const auto r = m_f.exec("{\"cmd\":\"true\",\"x\":" + nested(depth - 1, objects) + "}");
            QVERIFY2(r.status == 200 && jsonObject(r).value("exitCode").toInt(-1) == 0,
                     qPrintable(QString("depth %1: %2").arg(depth).arg(describe(r))));
        }
    }

    // 10 MB of "[[[[" (where the big body limit applies) is refused without recursion.
    void tenMegabytesOfBracketsAreRefused()
    {
        const auto r = m_f.server.request("POST", "/api/sandboxes/" + m_f.id + "/files",
                                          QByteArray(10 * 1000 * 1000, '['));
        QVERIFY2(isError(r, 400, "INVALID_JSON"), qPrintable(describe(r)));
        QVERIFY(m_f.apiAnswers());
    }

    // A keyed body trickled a byte every 250 ms falls below the minimum rate once the grace
    // (2 s) is over and is cut; the control sends its body in two halves 500 ms apart.
    void slowlorisBodyIsCut()
    {
        QByteArray body = toJson({{"cmd", "true"}});
        body += QByteArray(1000 - body.size(), ' ');
        const QByteArray target = ("/api/sandboxes/" + m_f.id + "/exec").toUtf8();
        RawConn slow;
        QVERIFY(slow.connectTo(m_f.port()));
        QVERIFY(slow.send(requestHead("POST", target, m_f.key(), body.size())));
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
        QVERIFY(control.connectTo(m_f.port()));
        QVERIFY(control.send(requestHead("POST", target, m_f.key(), body.size()) + body.left(500)));
        QThread::msleep(500);
        QVERIFY(control.send(body.mid(500)));
        QCOMPARE(control.readResponse(10000), 200);
    }

    // A body above the minimum rate still ends at the total deadline (15 s here).
    void bodyTotalDeadline()
    {
        const QByteArray target = ("/api/sandboxes/" + m_f.id + "/files").toUtf8();
        RawConn steady;
        QVERIFY(steady.connectTo(m_f.port()));
        QVERIFY(steady.send(requestHead("POST", target, m_f.key(), 100 * kMiB)));
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
        QVERIFY(m_f.apiAnswers());
    }
};

QTEST_GUILESS_MAIN(TestSecApi)
#include "tst_sec_api.moc"
