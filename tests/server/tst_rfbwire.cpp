// support/rfbwire, the desktop stream's protocol without I/O: the handshake fed a byte at a time
// (as a socket may deliver it) and its refusals, WebSocket frames split anywhere, and the client
// messages' bytes. The suite tst_api_desktop checks the same code against the real x11vnc.
#include "support/rfbwire.h"

#include <QTest>
#include <QtEndian>

using namespace lizard::rfb;

namespace {

QByteArray serverInit(int width, int height, const QByteArray& name)
{
    QByteArray init(24, '\0');
    qToBigEndian<quint16>(quint16(width), init.data());
    qToBigEndian<quint16>(quint16(height), init.data() + 2);
    qToBigEndian<quint32>(quint32(name.size()), init.data() + 20);
    return init + name;
}

QByteArray serverFrame(int opcode, const QByteArray& payload)
{
    QByteArray f(1, char(0x80 | opcode));
    if (payload.size() < 126) {
        f.append(char(payload.size()));
    } else if (payload.size() < 65536) {
        f.append(char(126));
        f.append(char(payload.size() >> 8)).append(char(payload.size() & 0xff));
    } else {
        f.append(char(127));
        QByteArray n(8, '\0');
        qToBigEndian<quint64>(quint64(payload.size()), n.data());
        f += n;
    }
    return f + payload;
}

QByteArray pattern(int n)
{
    QByteArray b(n, '\0');
    for (int i = 0; i < n; ++i)
        b[i] = char(i * 7);
    return b;
}

} // namespace

class TestRfbWire : public QObject
{
    Q_OBJECT

private slots:
    void handshakeFedByteByByte()
    {
        const QByteArray challenge = pattern(16);
        const QByteArray server = "RFB 003.008\n" + QByteArray("\x02\x01\x02", 3) + challenge +
                                  QByteArray(4, '\0') + serverInit(800, 600, "lizard:1") +
                                  QByteArray(1, '\x02'); // a Bell after ServerInit
        Handshake h("secret12");
        QByteArray in, sent;
        for (char c : server) {
            in.append(c);
            sent += h.feed(in);
        }
        QCOMPARE(h.state(), Handshake::State::Ready);
        QCOMPARE(sent, "RFB 003.008\n" + QByteArray(1, '\x02') +
                           vncAuthResponse(challenge, "secret12") + QByteArray(1, '\x01'));
        QCOMPARE(h.width(), 800);
        QCOMPARE(h.height(), 600);
        QCOMPARE(in, QByteArray(1, '\x02')); // what follows ServerInit is the caller's
    }

    void handshakeRefusals_data()
    {
        QTest::addColumn<QByteArray>("server");
        QTest::addColumn<QString>("error");
        const QByteArray hello = "RFB 003.008\n";
        QTest::newRow("not RFB") << QByteArray("HTTP/1.1 200") << "not an RFB server: HTTP/1.1 200";
        QTest::newRow("no types") << hello + QByteArray(1, '\0') << "no VNC authentication offered";
        QTest::newRow("only none")
            << hello + QByteArray("\x01\x01", 2) << "no VNC authentication offered";
        QTest::newRow("wrong password")
            << hello + QByteArray("\x01\x02", 2) + pattern(16) + QByteArray("\0\0\0\x01", 4)
            << "authentication refused";
    }
    void handshakeRefusals()
    {
        QFETCH(QByteArray, server);
        QFETCH(QString, error);
        Handshake h("pw");
        QByteArray in = server;
        h.feed(in);
        QCOMPARE(h.state(), Handshake::State::Failed);
        QCOMPARE(h.error(), error);
    }

    void aStalledHandshakeSaysWhatItWaitsFor()
    {
        Handshake h("pw");
        QByteArray in = "RFB 003.008\n" + QByteArray("\x01\x02", 2) + pattern(10);
        h.feed(in);
        QCOMPARE(h.state(), Handshake::State::Working);
        QCOMPARE(h.waitingFor(), QString("the challenge"));
    }

    // Frames of each length form, split at every byte, give back the binary payloads in order;
    // a text frame is dropped, a close frame is seen.
    void framesSplitAnywhere()
    {
        const QList<QByteArray> payloads{pattern(5), pattern(300), pattern(70000)};
        QByteArray stream;
        for (const QByteArray& p : payloads)
            stream += serverFrame(2, p);
        stream += serverFrame(1, "text") + serverFrame(8, {});
        WebSocketReader reader;
        QByteArray out;
        for (qsizetype i = 0; i < stream.size(); i += 997) {
            reader.append(stream.mid(i, 997));
            out += reader.takePayload();
        }
        QCOMPARE(out, payloads[0] + payloads[1] + payloads[2]);
        QVERIFY(reader.closed());
        QVERIFY(reader.buffer().isEmpty());
    }

    void clientFramesAreMasked()
    {
        for (int size : {6, 125, 300, 70000}) {
            const QByteArray payload = pattern(size);
            const QByteArray f = webSocketFrame(payload);
            QCOMPARE(quint8(f[0]), quint8(0x82));
            QVERIFY(quint8(f[1]) & 0x80);
            const int header = size < 126 ? 2 : size < 65536 ? 4 : 10;
            QCOMPARE(f.size(), header + 4 + size);
            const QByteArray mask = f.mid(header, 4);
            QByteArray unmasked = f.mid(header + 4);
            for (int i = 0; i < unmasked.size(); ++i)
                unmasked[i] = char(unmasked[i] ^ mask[i & 3]);
            QCOMPARE(unmasked, payload);
        }
    }

    void clientMessages()
    {
        QCOMPARE(updateRequest(true, 1, 2, 1280, 800),
                 QByteArray("\x03\x01\x00\x01\x00\x02\x05\x00\x03\x20", 10));
        QCOMPARE(setEncodings({kEncodingCopyRect, kEncodingRaw, kEncodingDesktopSize}),
                 QByteArray("\x02\x00\x00\x03"
                            "\x00\x00\x00\x01"
                            "\x00\x00\x00\x00"
                            "\xff\xff\xff\x21",
                            16));
        const QByteArray format = setPixelFormatRgb32();
        QCOMPARE(format.size(), 20);
        QCOMPARE(format.mid(4, 13),
                 QByteArray("\x20\x18\x00\x01\x00\xff\x00\xff\x00\xff\x10\x08\x00", 13));
        QCOMPARE(pointerEvent(300, 2, 4), QByteArray("\x05\x04\x01\x2c\x00\x02", 6));
        QCOMPARE(keyEvent(0xff1b, true), QByteArray("\x04\x01\x00\x00\x00\x00\xff\x1b", 8));
    }
};

QTEST_GUILESS_MAIN(TestRfbWire)
#include "tst_rfbwire.moc"
