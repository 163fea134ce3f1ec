// Traffic through the port proxy: a WebSocket echo, request bodies, and a 200 MiB download
// that streams with backpressure while lizard-local's memory stays flat.
#include "proxy_support.h"
#include "support/procstatus.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRandomGenerator>

using namespace lizard::test;

namespace {

// A client WebSocket frame (FIN, masked).
QByteArray wsFrame(int opcode, const QByteArray& payload)
{
    QByteArray f;
    f.append(char(0x80 | opcode));
    const qint64 n = payload.size();
    if (n < 126) {
        f.append(char(0x80 | n));
    } else if (n < 65536) {
        f.append(char(0x80 | 126));
        f.append(char(n >> 8));
        f.append(char(n & 0xff));
    } else {
        f.append(char(0x80 | 127));
        for (int i = 7; i >= 0; --i)
            f.append(char((n >> (8 * i)) & 0xff));
    }
    const quint32 maskValue = QRandomGenerator::global()->generate();
    const char mask[4] = {char(maskValue), char(maskValue >> 8), char(maskValue >> 16),
                          char(maskValue >> 24)};
    f.append(mask, 4);
    for (qint64 i = 0; i < n; ++i)
        f.append(char(payload[i] ^ mask[i % 4]));
    return f;
}

// Reads one unmasked server frame from the connection (opcode and payload).
bool readWsFrame(RawHttp& http, int& opcode, QByteArray& payload, int timeoutMs = 20000)
{
    QByteArray& b = http.buffer();
    auto need = [&](qint64 n) {
        while (b.size() < n)
            if (!http.waitMore(timeoutMs))
                return false;
        return true;
    };
    if (!need(2))
        return false;
    opcode = b[0] & 0x0f;
    qint64 n = b[1] & 0x7f;
    int header = 2;
    if (n == 126) {
        if (!need(4))
            return false;
        n = (quint8(b[2]) << 8) | quint8(b[3]);
        header = 4;
    } else if (n == 127) {
        if (!need(10))
            return false;
        n = 0;
        for (int i = 0; i < 8; ++i)
            n = (n << 8) | quint8(b[2 + i]);
        header = 10;
    }
    if (!need(header + n))
        return false;
    payload = b.mid(header, n);
    b.remove(0, header + n);
    return true;
}

} // namespace

class TestProxyTraffic : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_id;
    Exposed m_e;

    qint64 serverPid() const
    {
        QFile f(m_server.dataDir() + "/server.json");
        if (!f.open(QIODevice::ReadOnly))
            return m_server.pid();
        return QJsonDocument::fromJson(f.readAll()).object().value("pid").toInteger(m_server.pid());
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_id = createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(m_id, why);
        QVERIFY2(startSandboxServer(m_server, m_id, 8000, &why), qPrintable(why));
        m_e = expose(m_server, m_id, 8000, &why);
        QVERIFY2(!m_e.token.isEmpty(), qPrintable(why));
        QVERIFY2(waitUntilServing(m_e), "the echo server did not answer through the proxy");
    }

    void webSocketEcho()
    {
        RawHttp http;
        QVERIFY(http.connectTo(m_e.hostname.section(':', 0, 0),
                               quint16(m_e.hostname.section(':', 1, 1).toUInt())));
        const QByteArray key = QByteArray("dGhlIHNhbXBsZSBub25jZQ==");
        http.socket().write(
            rawRequest("GET", "/ws", m_e.hostname.toLatin1(),
                       {tokenHeader(m_e.token), "Upgrade: websocket", "Connection: Upgrade",
                        "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: " + key},
                       {}, true));
        const RawResponse hs = http.readResponse();
        QVERIFY2(hs.error.isEmpty(), qPrintable(hs.error));
        QCOMPARE(hs.status, 101);
        QCOMPARE(hs.header("sec-websocket-accept"), QByteArray("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="));

        QByteArray big(100 * 1024, Qt::Uninitialized);
        for (int i = 0; i < big.size(); ++i)
            big[i] = char('a' + i % 26);
        const QList<QByteArray> messages = {"hello through the proxy", QByteArray(), big, "ü ✓"};
        for (const QByteArray& m : messages) {
            http.socket().write(wsFrame(1, m));
            int opcode = 0;
            QByteArray echoed;
            QVERIFY2(readWsFrame(http, opcode, echoed), "no echo frame");
            QCOMPARE(opcode, 1);
            QCOMPARE(echoed.size(), m.size());
            QCOMPARE(echoed, m);
        }
        // Two frames in one write, answered in order (the pipe keeps byte order).
        http.socket().write(wsFrame(2, "first") + wsFrame(2, "second"));
        for (const QByteArray& expected : {QByteArray("first"), QByteArray("second")}) {
            int opcode = 0;
            QByteArray echoed;
            QVERIFY(readWsFrame(http, opcode, echoed));
            QCOMPARE(opcode, 2);
            QCOMPARE(echoed, expected);
        }
        http.socket().write(wsFrame(8, {}));
        int opcode = 0;
        QByteArray payload;
        QVERIFY(readWsFrame(http, opcode, payload));
        QCOMPARE(opcode, 8);
    }

    void webSocketNeedsTheToken()
    {
        const RawResponse r =
            proxyRequest(m_e.hostname, "GET", "/ws",
                         {"Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="});
        QCOMPARE(r.status, 401);
    }

    void requestBodies_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<bool>("expectContinue");
        QTest::newRow("empty") << 0 << false;
        QTest::newRow("1 byte") << 1 << false;
        QTest::newRow("3 MiB") << 3 * 1024 * 1024 << false;
        QTest::newRow("3 MiB, Expect: 100-continue") << 3 * 1024 * 1024 << true;
    }
    void requestBodies()
    {
        QFETCH(int, size);
        QFETCH(bool, expectContinue);
        QByteArray body(size, Qt::Uninitialized);
        for (int i = 0; i < size; ++i)
            body[i] = char(QRandomGenerator::global()->bounded(256));
        RawHttp http;
        QVERIFY(http.connectTo(m_e.hostname.section(':', 0, 0),
                               quint16(m_e.hostname.section(':', 1, 1).toUInt())));
        QList<QByteArray> headers{tokenHeader(m_e.token)};
        if (expectContinue) {
            headers << "Expect: 100-continue";
            http.socket().write(
                rawRequest("POST", "/upload", m_e.hostname.toLatin1(), headers, {}, false)
                    .replace("Content-Length: 0", "Content-Length: " + QByteArray::number(size)));
            const RawResponse cont = http.readResponse(10000);
            QCOMPARE(cont.status, 100);
            http.socket().write(body);
        } else {
            http.socket().write(
                rawRequest("POST", "/upload", m_e.hostname.toLatin1(), headers, body));
        }
        const RawResponse r = http.readResponse(60000);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.status, 200);
        const QJsonObject echo = QJsonDocument::fromJson(r.body).object();
        QCOMPARE(echo.value("bodyLength").toInt(), size);
        QCOMPARE(echo.value("bodySha256").toString(),
                 QString::fromLatin1(
                     QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex()));
    }

    void download200MiBWithFlatMemory()
    {
        const qint64 pid = serverPid();
        QVERIFY(rssKiB(pid) > 0);
        RawHttp http;
        QVERIFY(http.connectTo(m_e.hostname.section(':', 0, 0),
                               quint16(m_e.hostname.section(':', 1, 1).toUInt())));
        http.socket().setReadBufferSize(256 * 1024); // the test reads slowly, so TCP pushes back
        http.socket().write(
            rawRequest("GET", "/big?mb=200", m_e.hostname.toLatin1(), {tokenHeader(m_e.token)}));
        QByteArray& buf = http.buffer();
        while (buf.indexOf("\r\n\r\n") < 0)
            QVERIFY(http.waitMore(20000));
        const int end = buf.indexOf("\r\n\r\n");
        QVERIFY2(buf.startsWith("HTTP/1.1 200"), buf.left(200).constData());
        QVERIFY(buf.left(end).contains("Content-Length: 209715200"));
        buf.remove(0, end + 4);

        const qint64 total = 200ll * 1024 * 1024;
        qint64 received = 0;
        qint64 baseline = 0, peak = 0;
        QByteArray pattern(256, Qt::Uninitialized);
        for (int i = 0; i < 256; ++i)
            pattern[i] = char(i);
        bool paused = false;
        while (received < total) {
            if (buf.isEmpty() && !http.waitMore(30000))
                break;
            // Check the bytes: position p holds p % 256.
            const qint64 offset = received % 256;
            const QByteArray head = buf.left(256);
            QVERIFY(head == (pattern.mid(offset) + pattern.left(offset)).left(head.size()));
            received += buf.size();
            buf.clear();
            if (received > 4 * 1024 * 1024 && baseline == 0)
                baseline = rssKiB(pid);
            if (received > 20 * 1024 * 1024 && !paused) {
                // A client that stops reading: the proxy must stop reading from the sandbox too.
                paused = true;
                QThread::msleep(1500);
                peak = qMax(peak, rssKiB(pid));
            }
            if ((received / (1024 * 1024)) % 10 == 0)
                peak = qMax(peak, rssKiB(pid));
        }
        peak = qMax(peak, rssKiB(pid));
        QCOMPARE(received, total);
        const qint64 growth = peak - baseline;
        qInfo(
            "lizard-local RSS: %lld KiB after 4 MiB, peak %lld KiB over 200 MiB (growth %lld KiB)",
            baseline, peak, growth);
        QVERIFY2(growth < 24 * 1024,
                 qPrintable(QString("server memory grew by %1 KiB").arg(growth)));
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_server.request("DELETE", "/api/sandboxes/" + m_id);
    }
};

QTEST_GUILESS_MAIN(TestProxyTraffic)
#include "tst_proxy_traffic.moc"
