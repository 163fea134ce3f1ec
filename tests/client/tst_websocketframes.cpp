// The RFC 6455 codec of client/websocketframes.h, byte by byte: masking, the three length
// forms, fragments between control frames, a frame cut short, the limits, close payloads and
// the opening handshake's request and answer.

#include "client/websocketframes.h"

#include <QTest>

using namespace lizard::client::wsframes;

namespace {

const MaskKey kMask{0x37, 0xfa, 0x21, 0x3d};

QByteArray bytes(std::initializer_list<int> values)
{
    QByteArray out;
    for (int v : values)
        out.append(char(v));
    return out;
}

// A server frame (unmasked) with the given first byte and payload.
QByteArray serverFrame(Opcode op, const QByteArray& payload, bool fin = true)
{
    return encodeFrame(op, payload, fin, std::nullopt);
}

} // namespace

class TestWebSocketFrames : public QObject
{
    Q_OBJECT
private slots:
    void rfcExamples();
    void maskingRoundTrip();
    void maskOffsetContinues();
    void lengthForms_data();
    void lengthForms();
    void truncatedFrameWaits_data();
    void truncatedFrameWaits();
    void twoFramesInOneBuffer();
    void oversizedFrameIsAnError();
    void hugeAnnouncedLengthIsRefusedAtOnce();
    void badFrames_data();
    void badFrames();
    void fragmentsWithControlBetween();
    void fragmentErrors();
    void messageLimit();
    void textMustBeUtf8();
    void closePayload();
    void closeReasonIsCutOnACharacter();
    void acceptKey();
    void keysAreRandom();
    void upgradeRequest();
    void splitUrl_data();
    void splitUrl();
    void responseHead();
    void responseHeadLimits();
    void checkUpgrade();
    void errorBodies();
};

// The examples of RFC 6455 §5.7.
void TestWebSocketFrames::rfcExamples()
{
    QCOMPARE(serverFrame(Opcode::Text, "Hello"), bytes({0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f}));
    QCOMPARE(encodeFrame(Opcode::Text, "Hello", true, kMask),
             bytes({0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58}));
    QCOMPARE(serverFrame(Opcode::Text, "Hel", false), bytes({0x01, 0x03, 0x48, 0x65, 0x6c}));
    QCOMPARE(serverFrame(Opcode::Continuation, "lo"), bytes({0x80, 0x02, 0x6c, 0x6f}));
    QCOMPARE(serverFrame(Opcode::Ping, "Hello"), bytes({0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f}));

    const Decoded d = decodeFrame(
        bytes({0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58}), 1024);
    QCOMPARE(d.status, Decoded::Status::Frame);
    QVERIFY(d.frame.masked);
    QVERIFY(d.frame.fin);
    QCOMPARE(d.frame.opcode, Opcode::Text);
    QCOMPARE(d.frame.payload, QByteArray("Hello"));
    QCOMPARE(d.consumed, qsizetype(11));
}

void TestWebSocketFrames::maskingRoundTrip()
{
    QByteArray payload(1000, Qt::Uninitialized);
    for (int i = 0; i < payload.size(); ++i)
        payload[i] = char(i * 7);
    const QByteArray wire = encodeFrame(Opcode::Binary, payload, true, kMask);
    // The payload on the wire is not the payload.
    QVERIFY(!wire.contains(payload.mid(0, 16)));
    const Decoded d = decodeFrame(wire, 1 << 20);
    QCOMPARE(d.status, Decoded::Status::Frame);
    QCOMPARE(d.frame.payload, payload);
    QCOMPARE(d.frame.opcode, Opcode::Binary);
}

void TestWebSocketFrames::maskOffsetContinues()
{
    QByteArray whole("abcdefghij");
    QByteArray pieces = whole;
    applyMask(whole.data(), whole.size(), kMask);
    applyMask(pieces.data(), 3, kMask, 0);
    applyMask(pieces.data() + 3, 7, kMask, 3);
    QCOMPARE(pieces, whole);
}

void TestWebSocketFrames::lengthForms_data()
{
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("headerSize"); // unmasked
    QTest::newRow("empty") << 0 << 2;
    QTest::newRow("125: 7-bit") << 125 << 2;
    QTest::newRow("126: 16-bit") << 126 << 4;
    QTest::newRow("65535: 16-bit") << 65535 << 4;
    QTest::newRow("65536: 64-bit") << 65536 << 10;
    QTest::newRow("1 MiB: 64-bit") << (1 << 20) << 10;
}

void TestWebSocketFrames::lengthForms()
{
    QFETCH(int, length);
    QFETCH(int, headerSize);
    const QByteArray payload(length, 'x');
    const QByteArray plain = serverFrame(Opcode::Binary, payload);
    QCOMPARE(plain.size(), headerSize + length);
    const QByteArray masked = encodeFrame(Opcode::Binary, payload, true, kMask);
    QCOMPARE(masked.size(), headerSize + 4 + length);
    if (headerSize == 4) {
        QCOMPARE(quint8(plain[1]), quint8(126));
        QCOMPARE((quint8(plain[2]) << 8) | quint8(plain[3]), length);
    } else if (headerSize == 10) {
        QCOMPARE(quint8(plain[1]), quint8(127));
        quint64 n = 0;
        for (int i = 2; i < 10; ++i)
            n = (n << 8) | quint8(plain[i]);
        QCOMPARE(n, quint64(length));
    }
    for (const QByteArray& wire : {plain, masked}) {
        const Decoded d = decodeFrame(wire, 4 << 20);
        QCOMPARE(d.status, Decoded::Status::Frame);
        QCOMPARE(d.frame.payload.size(), qsizetype(length));
        QCOMPARE(d.consumed, wire.size());
    }
}

void TestWebSocketFrames::truncatedFrameWaits_data()
{
    QTest::addColumn<QByteArray>("wire");
    QTest::newRow("7-bit") << encodeFrame(Opcode::Text, "hello there", true, kMask);
    QTest::newRow("16-bit") << serverFrame(Opcode::Binary, QByteArray(300, 'a'));
    QTest::newRow("64-bit") << encodeFrame(Opcode::Binary, QByteArray(70000, 'b'), true, kMask);
}

// Every prefix of a frame is "need more", consuming nothing.
void TestWebSocketFrames::truncatedFrameWaits()
{
    QFETCH(QByteArray, wire);
    for (qsizetype cut = 0; cut < wire.size(); cut += (cut < 20 ? 1 : 997)) {
        const Decoded d = decodeFrame(wire.left(cut), 1 << 20);
        QVERIFY2(d.status == Decoded::Status::NeedMore, qPrintable(QString::number(cut)));
        QCOMPARE(d.consumed, qsizetype(0));
    }
    QCOMPARE(decodeFrame(wire.left(wire.size() - 1), 1 << 20).status, Decoded::Status::NeedMore);
    QCOMPARE(decodeFrame(wire, 1 << 20).status, Decoded::Status::Frame);
}

void TestWebSocketFrames::twoFramesInOneBuffer()
{
    const QByteArray wire = serverFrame(Opcode::Text, "one") + serverFrame(Opcode::Binary, "two");
    const Decoded first = decodeFrame(wire, 100);
    QCOMPARE(first.frame.payload, QByteArray("one"));
    const Decoded second = decodeFrame(QByteArrayView(wire).sliced(first.consumed), 100);
    QCOMPARE(second.frame.payload, QByteArray("two"));
    QCOMPARE(second.frame.opcode, Opcode::Binary);
    QCOMPARE(first.consumed + second.consumed, wire.size());
}

void TestWebSocketFrames::oversizedFrameIsAnError()
{
    const QByteArray wire = serverFrame(Opcode::Binary, QByteArray(1001, 'z'));
    QCOMPARE(decodeFrame(wire, 1001).status, Decoded::Status::Frame);
    const Decoded d = decodeFrame(wire, 1000);
    QCOMPARE(d.status, Decoded::Status::Error);
    QCOMPARE(d.closeCode, 1009);
}

// Only the header has arrived: the length alone is refused, without waiting for the bytes.
void TestWebSocketFrames::hugeAnnouncedLengthIsRefusedAtOnce()
{
    const QByteArray header = bytes({0x82, 0x7f, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00});
    const Decoded d = decodeFrame(header, 4 << 20);
    QCOMPARE(d.status, Decoded::Status::Error);
    QCOMPARE(d.closeCode, 1009);
}

void TestWebSocketFrames::badFrames_data()
{
    QTest::addColumn<QByteArray>("wire");
    QTest::newRow("RSV1 set") << bytes({0xc1, 0x00});
    QTest::newRow("reserved opcode 3") << bytes({0x83, 0x00});
    QTest::newRow("reserved control opcode 0xB") << bytes({0x8b, 0x00});
    QTest::newRow("fragmented ping") << bytes({0x09, 0x00});
    QTest::newRow("ping of 126 bytes") << bytes({0x89, 0x7e, 0x00, 0x7e});
    QTest::newRow("64-bit length, top bit") << bytes({0x82, 0x7f, 0x80, 0, 0, 0, 0, 0, 0, 0});
}

void TestWebSocketFrames::badFrames()
{
    QFETCH(QByteArray, wire);
    const Decoded d = decodeFrame(wire, 1 << 20);
    QCOMPARE(d.status, Decoded::Status::Error);
    QCOMPARE(d.closeCode, 1002);
    QVERIFY(!d.error.isEmpty());
}

void TestWebSocketFrames::fragmentsWithControlBetween()
{
    MessageAssembler a(1 << 20);
    using S = MessageAssembler::Result::Status;
    auto r = a.add({false, Opcode::Binary, false, "ab"});
    QCOMPARE(r.status, S::Partial);
    QVERIFY(a.inMessage());
    r = a.add({true, Opcode::Ping, false, "p"});
    QCOMPARE(r.status, S::Control);
    QCOMPARE(r.opcode, Opcode::Ping);
    QCOMPARE(r.payload, QByteArray("p"));
    r = a.add({false, Opcode::Continuation, false, "cd"});
    QCOMPARE(r.status, S::Partial);
    r = a.add({true, Opcode::Continuation, false, "ef"});
    QCOMPARE(r.status, S::Message);
    QCOMPARE(r.opcode, Opcode::Binary);
    QCOMPARE(r.payload, QByteArray("abcdef"));
    QVERIFY(!a.inMessage());
    // An unfragmented message afterwards.
    r = a.add({true, Opcode::Text, false, "{}"});
    QCOMPARE(r.status, S::Message);
    QCOMPARE(r.opcode, Opcode::Text);
    QCOMPARE(r.payload, QByteArray("{}"));
}

void TestWebSocketFrames::fragmentErrors()
{
    using S = MessageAssembler::Result::Status;
    {
        MessageAssembler a(100);
        const auto r = a.add({true, Opcode::Continuation, false, "x"});
        QCOMPARE(r.status, S::Error);
        QCOMPARE(r.closeCode, 1002);
    }
    {
        MessageAssembler a(100);
        QCOMPARE(a.add({false, Opcode::Text, false, "x"}).status, S::Partial);
        const auto r = a.add({true, Opcode::Binary, false, "y"});
        QCOMPARE(r.status, S::Error);
        QCOMPARE(r.closeCode, 1002);
    }
}

void TestWebSocketFrames::messageLimit()
{
    using S = MessageAssembler::Result::Status;
    MessageAssembler a(10);
    QCOMPARE(a.add({false, Opcode::Binary, false, "12345"}).status, S::Partial);
    QCOMPARE(a.add({false, Opcode::Continuation, false, "12345"}).status, S::Partial);
    const auto r = a.add({true, Opcode::Continuation, false, "1"});
    QCOMPARE(r.status, S::Error);
    QCOMPARE(r.closeCode, 1009);
    // Exactly the limit is fine.
    MessageAssembler b(10);
    QCOMPARE(b.add({true, Opcode::Binary, false, "0123456789"}).status, S::Message);
}

void TestWebSocketFrames::textMustBeUtf8()
{
    using S = MessageAssembler::Result::Status;
    MessageAssembler a(100);
    const auto bad = a.add({true, Opcode::Text, false, bytes({0x7b, 0xff, 0x7d})});
    QCOMPARE(bad.status, S::Error);
    QCOMPARE(bad.closeCode, 1007);
    // A message that ends inside a character is not UTF-8 either.
    const auto cut = a.add({true, Opcode::Text, false, bytes({0x7b, 0xc3})});
    QCOMPARE(cut.status, S::Error);
    QCOMPARE(cut.closeCode, 1007);
    // A character split over two fragments is whole in the message.
    const QByteArray e = QString::fromUtf8("é").toUtf8();
    QCOMPARE(a.add({false, Opcode::Text, false, e.left(1)}).status, S::Partial);
    const auto good = a.add({true, Opcode::Continuation, false, e.mid(1)});
    QCOMPARE(good.status, S::Message);
    QCOMPARE(good.payload, e);
    // Binary is anything.
    QCOMPARE(a.add({true, Opcode::Binary, false, bytes({0xff, 0xfe})}).status, S::Message);
}

void TestWebSocketFrames::closePayload()
{
    QCOMPARE(encodeClosePayload(1000), bytes({0x03, 0xe8}));
    QCOMPARE(encodeClosePayload(1009, "too big"), bytes({0x03, 0xf1}) + "too big");
    auto c = decodeClosePayload(bytes({0x03, 0xe8}) + "bye");
    QVERIFY(c.has_value());
    QCOMPARE(c->code, 1000);
    QCOMPARE(c->reason, QStringLiteral("bye"));
    c = decodeClosePayload({});
    QVERIFY(c.has_value());
    QCOMPARE(c->code, 1005);
    QVERIFY(!decodeClosePayload(bytes({0x03})).has_value());             // one byte
    QVERIFY(!decodeClosePayload(bytes({0x03, 0xed})).has_value());       // 1005 is never sent
    QVERIFY(!decodeClosePayload(bytes({0x03, 0xee})).has_value());       // nor 1006
    QVERIFY(!decodeClosePayload(bytes({0x03, 0xe8, 0xff})).has_value()); // reason not UTF-8
    QCOMPARE(decodeClosePayload(bytes({0x0f, 0xa0}))->code, 4000);       // application codes
}

void TestWebSocketFrames::closeReasonIsCutOnACharacter()
{
    const QString reason = QString(200, QChar(0x00e9)); // é: two bytes each
    const QByteArray payload = encodeClosePayload(1000, reason);
    QVERIFY(payload.size() <= 125);
    const auto c = decodeClosePayload(payload);
    QVERIFY(c.has_value());
    QCOMPARE(c->reason, QString(61, QChar(0x00e9)));
    // And a close frame that carries it is a valid control frame.
    QCOMPARE(decodeFrame(serverFrame(Opcode::Close, payload), 1000).status, Decoded::Status::Frame);
}

// RFC 6455 §1.3's example key and answer.
void TestWebSocketFrames::acceptKey()
{
    QCOMPARE(acceptFor("dGhlIHNhbXBsZSBub25jZQ=="), QByteArray("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="));
}

void TestWebSocketFrames::keysAreRandom()
{
    const QByteArray a = makeKey();
    const QByteArray b = makeKey();
    QVERIFY(a != b);
    QCOMPARE(QByteArray::fromBase64(a).size(), qsizetype(16));
    QCOMPARE(a.size(), qsizetype(24));
}

void TestWebSocketFrames::upgradeRequest()
{
    const QByteArray r = lizard::client::wsframes::upgradeRequest(
        "/api/sandboxes/sb1/terminals/t-1/attach?replay=0", "127.0.0.1:7411", "KEY==",
        {"X-API-Key: liz_abc", "User-Agent: lizard-desktop/1", "X-Evil: a\r\nInjected: 1"});
    QVERIFY(r.startsWith("GET /api/sandboxes/sb1/terminals/t-1/attach?replay=0 HTTP/1.1\r\n"));
    QVERIFY(r.endsWith("\r\n\r\n"));
    QVERIFY(r.contains("\r\nHost: 127.0.0.1:7411\r\n"));
    QVERIFY(r.contains("\r\nUpgrade: websocket\r\n"));
    QVERIFY(r.contains("\r\nConnection: Upgrade\r\n"));
    QVERIFY(r.contains("\r\nSec-WebSocket-Key: KEY==\r\n"));
    QVERIFY(r.contains("\r\nSec-WebSocket-Version: 13\r\n"));
    QVERIFY(r.contains("\r\nX-API-Key: liz_abc\r\n"));
    QVERIFY(r.contains("\r\nUser-Agent: lizard-desktop/1\r\n"));
    QVERIFY(!r.contains("\r\nInjected:"));
}

void TestWebSocketFrames::splitUrl_data()
{
    QTest::addColumn<QByteArray>("url");
    QTest::addColumn<QByteArray>("host");
    QTest::addColumn<QByteArray>("target");
    QTest::newRow("local") << QByteArray("http://127.0.0.1:7411/api/x/attach?replay=0")
                           << QByteArray("127.0.0.1:7411") << QByteArray("/api/x/attach?replay=0");
    QTest::newRow("https default port") << QByteArray("https://lizard.build:443/api/a%20b")
                                        << QByteArray("lizard.build") << QByteArray("/api/a%20b");
    QTest::newRow("ws other port")
        << QByteArray("ws://example.org:8080") << QByteArray("example.org:8080") << QByteArray("/");
    QTest::newRow("ipv6") << QByteArray("http://[::1]:9000/p") << QByteArray("[::1]:9000")
                          << QByteArray("/p");
    QTest::newRow("query, no path")
        << QByteArray("wss://h?x=1") << QByteArray("h") << QByteArray("/?x=1");
}

void TestWebSocketFrames::splitUrl()
{
    QFETCH(QByteArray, url);
    QFETCH(QByteArray, host);
    QFETCH(QByteArray, target);
    const UrlParts p = lizard::client::wsframes::splitUrl(url);
    QVERIFY(p.valid);
    QCOMPARE(p.host, host);
    QCOMPARE(p.target, target);
    QVERIFY(!lizard::client::wsframes::splitUrl("ftp://h/x").valid);
    QVERIFY(!lizard::client::wsframes::splitUrl("not a url").valid);
}

void TestWebSocketFrames::responseHead()
{
    const QByteArray answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                              "Connection: Upgrade\r\nSec-WebSocket-Accept: abc\r\n\r\n";
    QCOMPARE(parseResponseHead(answer.left(answer.size() - 1)).status,
             HeadResult::Status::NeedMore);
    const HeadResult r = parseResponseHead(answer + bytes({0x81, 0x00}));
    QCOMPARE(r.status, HeadResult::Status::Head);
    QCOMPARE(r.head.status, 101);
    QCOMPARE(r.head.reason, QByteArray("Switching Protocols"));
    QCOMPARE(r.head.header("upgrade"), QByteArray("websocket"));
    QCOMPARE(r.head.header("sec-websocket-accept"), QByteArray("abc"));
    QCOMPARE(r.head.headSize, answer.size());
}

void TestWebSocketFrames::responseHeadLimits()
{
    QCOMPARE(parseResponseHead("SSH-2.0-OpenSSH\r\n").status, HeadResult::Status::Error);
    QCOMPARE(parseResponseHead("HTTP/1.1 abc\r\n\r\n").status, HeadResult::Status::Error);
    const QByteArray endless = "HTTP/1.1 101 OK\r\nX: " + QByteArray(20000, 'a');
    QCOMPARE(parseResponseHead(endless, 16 * 1024).status, HeadResult::Status::Error);
}

void TestWebSocketFrames::checkUpgrade()
{
    const QByteArray key = "dGhlIHNhbXBsZSBub25jZQ==";
    ResponseHead h;
    h.status = 101;
    h.headers = {{"upgrade", "WebSocket"},
                 {"connection", "keep-alive, Upgrade"},
                 {"sec-websocket-accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="}};
    QCOMPARE(lizard::client::wsframes::checkUpgrade(h, key), QString());
    ResponseHead wrongAccept = h;
    wrongAccept.headers[2].second = "AAAA";
    QVERIFY(!lizard::client::wsframes::checkUpgrade(wrongAccept, key).isEmpty());
    ResponseHead noUpgrade = h;
    noUpgrade.headers[0].second = "h2c";
    QVERIFY(!lizard::client::wsframes::checkUpgrade(noUpgrade, key).isEmpty());
    ResponseHead extension = h;
    extension.headers.append(
        qMakePair(QByteArray("sec-websocket-extensions"), QByteArray("permessage-deflate")));
    QVERIFY(!lizard::client::wsframes::checkUpgrade(extension, key).isEmpty());
    ResponseHead notFound = h;
    notFound.status = 404;
    QVERIFY(!lizard::client::wsframes::checkUpgrade(notFound, key).isEmpty());
}

void TestWebSocketFrames::errorBodies()
{
    ResponseHead sized;
    sized.status = 401;
    sized.headers = {{"content-length", "10"}};
    QVERIFY(!responseBody(sized, "01234", false).has_value());
    QCOMPARE(*responseBody(sized, "0123456789extra", false), QByteArray("0123456789"));
    QCOMPARE(*responseBody(sized, "01234", true), QByteArray("01234"));

    ResponseHead chunked;
    chunked.status = 404;
    chunked.headers = {{"transfer-encoding", "chunked"}};
    QVERIFY(!responseBody(chunked, "4\r\n{\"a\"", false).has_value());
    QCOMPARE(*responseBody(chunked, "4\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n", false),
             QByteArray("{\"a\":1}"));

    ResponseHead unsized;
    unsized.status = 426;
    QVERIFY(!responseBody(unsized, "{}", false).has_value());
    QCOMPARE(*responseBody(unsized, "{}", true), QByteArray("{}"));
}

QTEST_GUILESS_MAIN(TestWebSocketFrames)
#include "tst_websocketframes.moc"
