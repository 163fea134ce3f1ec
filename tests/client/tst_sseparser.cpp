// SseParser: every way of cutting a stream into chunks gives the same events.

#include "client/sseparser.h"

#include <QTest>

using lizard::client::SseEvent;
using lizard::client::SseParser;

Q_DECLARE_METATYPE(lizard::client::SseEvent)

namespace {

SseEvent ev(const QString& data, const QString& event = QStringLiteral("message"),
            const QString& id = {})
{
    SseEvent e;
    e.data = data;
    e.event = event;
    e.id = id;
    return e;
}

QString show(const QList<SseEvent>& events)
{
    QStringList out;
    for (const SseEvent& e : events)
        out << QStringLiteral("[%1|%2|%3]").arg(e.event, e.id, e.data);
    return out.join(QLatin1Char(' '));
}

QList<SseEvent> parseChunks(const QList<QByteArray>& chunks)
{
    SseParser p;
    QList<SseEvent> out;
    for (const QByteArray& c : chunks)
        out += p.feed(c);
    out += p.finish();
    return out;
}

} // namespace

class TestSseParser : public QObject
{
    Q_OBJECT
private slots:
    void parses_data();
    void parses();
    void everyTwoChunkSplit_data() { parses_data(); }
    void everyTwoChunkSplit();
    void everyThreeChunkSplit_data() { parses_data(); }
    void everyThreeChunkSplit();
    void byteByByte_data() { parses_data(); }
    void byteByByte();
    void eventsArriveAsSoonAsTheirBlankLine();
    void crAtChunkEndThenLf();
    void retryField();
    void byteOrderMarkInAFieldIsContent();
};

void TestSseParser::parses_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QList<SseEvent>>("expected");

    const QByteArray exec = "data: {\"pid\": 42}\n\n"
                            "data: {\"stream\":\"stdout\",\"line\":\"hello\"}\n\n"
                            "data: {\"stream\":\"stderr\",\"line\":\"oops\"}\n\n"
                            "data: {\"exitCode\": 3}\n\n";
    QTest::newRow("exec events LF")
        << exec
        << QList<SseEvent>{ev("{\"pid\": 42}"), ev("{\"stream\":\"stdout\",\"line\":\"hello\"}"),
                           ev("{\"stream\":\"stderr\",\"line\":\"oops\"}"),
                           ev("{\"exitCode\": 3}")};
    QByteArray crlf = exec;
    crlf.replace("\n", "\r\n");
    QTest::newRow("CRLF") << crlf
                          << QList<SseEvent>{ev("{\"pid\": 42}"),
                                             ev("{\"stream\":\"stdout\",\"line\":\"hello\"}"),
                                             ev("{\"stream\":\"stderr\",\"line\":\"oops\"}"),
                                             ev("{\"exitCode\": 3}")};
    QByteArray cr = exec;
    cr.replace("\n", "\r");
    QTest::newRow("lone CR") << cr
                             << QList<SseEvent>{ev("{\"pid\": 42}"),
                                                ev("{\"stream\":\"stdout\",\"line\":\"hello\"}"),
                                                ev("{\"stream\":\"stderr\",\"line\":\"oops\"}"),
                                                ev("{\"exitCode\": 3}")};
    QTest::newRow("mixed endings") << QByteArray("data: a\r\n\rdata: b\r\rdata: c\n\r\n")
                                   << QList<SseEvent>{ev("a"), ev("b"), ev("c")};
    QTest::newRow("split UTF-8") << QByteArray("data: caf\xC3\xA9 \xF0\x9F\xA6\x8E lizard\n\n")
                                 << QList<SseEvent>{ev(QString::fromUtf8("café 🦎 lizard"))};
    QTest::newRow("multi-line data") << QByteArray("data: one\ndata: two\ndata:three\ndata\n\n")
                                     << QList<SseEvent>{ev("one\ntwo\nthree\n")};
    QTest::newRow("comments ignored")
        << QByteArray(": keep-alive\n: another\ndata: x\n: mid\ndata: y\n\n:bye\n\n")
        << QList<SseEvent>{ev("x\ny")};
    QTest::newRow("event and id fields")
        << QByteArray("event: error\nid: 7\ndata: {\"error\":\"E\"}\n\ndata: after\n\n")
        << QList<SseEvent>{ev("{\"error\":\"E\"}", "error", "7"), ev("after", "message", "7")};
    QTest::newRow("id with NUL ignored")
        << QByteArray("id: 1\ndata: a\n\nid: x") + QByteArray(1, '\0') + "y\ndata: b\n\n"
        << QList<SseEvent>{ev("a", "message", "1"), ev("b", "message", "1")};
    QTest::newRow("no space after colon, extra space kept")
        << QByteArray("data:tight\ndata:  two spaces\n\n")
        << QList<SseEvent>{ev("tight\n two spaces")};
    QTest::newRow("unknown fields ignored")
        << QByteArray("foo: bar\ndata: z\nbaz\n\n") << QList<SseEvent>{ev("z")};
    QTest::newRow("no trailing blank line")
        << QByteArray("data: first\n\ndata: last\n") << QList<SseEvent>{ev("first"), ev("last")};
    QTest::newRow("no trailing newline at all")
        << QByteArray("data: first\n\ndata: {\"exitCode\":0}")
        << QList<SseEvent>{ev("first"), ev("{\"exitCode\":0}")};
    QTest::newRow("event without data is not dispatched")
        << QByteArray("event: ping\n\ndata: real\n\n") << QList<SseEvent>{ev("real")};
    QTest::newRow("empty data is dispatched") << QByteArray("data\n\n") << QList<SseEvent>{ev("")};
    QTest::newRow("BOM at start") << QByteArray("\xEF\xBB\xBF"
                                                "data: bom\n\n")
                                  << QList<SseEvent>{ev("bom")};
    QTest::newRow("blank lines only") << QByteArray("\n\n\r\n\r") << QList<SseEvent>{};
    QTest::newRow("empty stream") << QByteArray() << QList<SseEvent>{};
}

void TestSseParser::parses()
{
    QFETCH(QByteArray, stream);
    QFETCH(QList<SseEvent>, expected);
    QCOMPARE(show(parseChunks({stream})), show(expected));
}

void TestSseParser::everyTwoChunkSplit()
{
    QFETCH(QByteArray, stream);
    QFETCH(QList<SseEvent>, expected);
    for (qsizetype cut = 0; cut <= stream.size(); ++cut) {
        const QList<SseEvent> got = parseChunks({stream.left(cut), stream.mid(cut)});
        if (got != expected)
            QFAIL(qPrintable(
                QStringLiteral("cut at %1: %2 != %3").arg(cut).arg(show(got), show(expected))));
    }
}

void TestSseParser::everyThreeChunkSplit()
{
    QFETCH(QByteArray, stream);
    QFETCH(QList<SseEvent>, expected);
    for (qsizetype a = 0; a <= stream.size(); ++a) {
        for (qsizetype b = a; b <= stream.size(); ++b) {
            const QList<SseEvent> got =
                parseChunks({stream.left(a), stream.mid(a, b - a), stream.mid(b)});
            if (got != expected)
                QFAIL(qPrintable(QStringLiteral("cuts at %1,%2: %3").arg(a).arg(b).arg(show(got))));
        }
    }
}

void TestSseParser::byteByByte()
{
    QFETCH(QByteArray, stream);
    QFETCH(QList<SseEvent>, expected);
    QList<QByteArray> bytes;
    for (char c : stream)
        bytes.append(QByteArray(1, c));
    QCOMPARE(show(parseChunks(bytes)), show(expected));
}

void TestSseParser::eventsArriveAsSoonAsTheirBlankLine()
{
    SseParser p;
    QVERIFY(p.feed("data: a\n").isEmpty());
    QCOMPARE(show(p.feed("\ndata: b")), show({ev("a")}));
    QVERIFY(p.feed("\n").isEmpty());
    QCOMPARE(show(p.feed("\n")), show({ev("b")}));
    QVERIFY(p.finish().isEmpty());
}

void TestSseParser::crAtChunkEndThenLf()
{
    // "\r" ends a line at once; the "\n" in the next chunk must not count as a blank line.
    SseParser p;
    QVERIFY(p.feed("data: a\r").isEmpty());
    QVERIFY(p.feed("\ndata: b\r").isEmpty());
    QCOMPARE(show(p.feed("\n\r\n")), show({ev("a\nb")}));
}

void TestSseParser::retryField()
{
    SseParser p;
    QCOMPARE(p.retryMs(), -1);
    p.feed("retry: 1500\n");
    QCOMPARE(p.retryMs(), 1500);
    p.feed("retry: soon\n");
    QCOMPARE(p.retryMs(), 1500);
}

// Found by the fuzzer: a field whose value starts with U+FEFF lost it, and `event: <BOM>`
// became an event without a name. Only the stream's first BOM is framing.
void TestSseParser::byteOrderMarkInAFieldIsContent()
{
    SseParser p;
    const QList<SseEvent> events = p.feed("\xEF\xBB\xBF"
                                          "event: \xEF\xBB\xBF\r\ndata: \xEF\xBB\xBFx\n\n");
    QCOMPARE(events.size(), 1);
    QCOMPARE(events[0].event, QString(QChar(0xFEFF)));
    QCOMPARE(events[0].data, QString(QChar(0xFEFF)) + "x");
    // A sequence cut short is a replacement character, as everywhere else, not nothing.
    const QList<SseEvent> cut = p.feed("event: \xEF\ndata: x\n\n");
    QCOMPARE(cut.size(), 1);
    QCOMPARE(cut[0].event, QString(QChar(0xFFFD)));
}

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
