// SseCounter: the exec event stream parser of the SSE throughput figure.

#include "ssecounter.h"

#include <QTest>

using lizard::bench::SseCounter;

static constexpr int kNoExit = 1000;

class TestSseCounter : public QObject
{
    Q_OBJECT

private slots:
    void counts_data();
    void counts();
    void splitAnywhere();
    void jsonStringLength_data();
    void jsonStringLength();
};

void TestSseCounter::counts_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<qulonglong>("bytes");
    QTest::addColumn<qulonglong>("lines");
    QTest::addColumn<int>("exitCode"); // kNoExit: no exit event seen
    QTest::addColumn<bool>("malformed");

    QTest::newRow("two lines and exit")
        << QByteArray("data: {\"stream\":\"stdout\",\"line\":\"abc\"}\n\n"
                      "data: {\"stream\":\"stdout\",\"line\":\"\"}\n\ndata: {\"exitCode\":0}\n\n")
        << 5ull << 2ull << 0 << false;
    QTest::newRow("pid first, stderr not counted")
        << QByteArray("data: {\"pid\":42}\n\ndata: {\"stream\":\"stderr\",\"line\":\"oops\"}\n\n"
                      "data: {\"stream\":\"stdout\",\"line\":\"x\"}\n\ndata: {\"exitCode\":3}\n\n")
        << 2ull << 1ull << 3 << false;
    QTest::newRow("escapes decode to their bytes")
        << QByteArray("data: "
                      "{\"stream\":\"stdout\",\"line\":"
                      "\"a\\\"b\\\\c\\u00e9\\u20ac\\ud83d\\ude00\\t\"}\n\n")
        << qulonglong(1 + 1 + 1 + 1 + 1 + 2 + 3 + 4 + 1 + 1) << 1ull << kNoExit << false;
    QTest::newRow("raw UTF-8 counts bytes")
        << QByteArray("data:{\"line\":\"\xc3\xa9\",\"stream\":\"stdout\"}\r\n\r\n") << 3ull << 1ull
        << kNoExit << false;
    QTest::newRow("comments and names ignored")
        << QByteArray(": keep-alive\nevent: message\nid: 1\ndata: {\"exitCode\":-9}\n\n") << 0ull
        << 0ull << -9 << false;
    QTest::newRow("unterminated string is malformed")
        << QByteArray("data: {\"stream\":\"stdout\",\"line\":\"abc}\n\n") << 0ull << 0ull << kNoExit
        << true;
    QTest::newRow("a stdout line that mentions stderr")
        << QByteArray("data: {\"stream\":\"stdout\",\"line\":\"\\\"stderr\\\"\"}\n\n") << 9ull
        << 1ull << kNoExit << false;
}

void TestSseCounter::counts()
{
    QFETCH(QByteArray, stream);
    QFETCH(qulonglong, bytes);
    QFETCH(qulonglong, lines);
    QFETCH(int, exitCode);
    QFETCH(bool, malformed);

    SseCounter counter;
    counter.feed(stream.constData(), size_t(stream.size()));
    QCOMPARE(qulonglong(counter.outputBytes()), bytes);
    QCOMPARE(qulonglong(counter.lines()), lines);
    QCOMPARE(counter.exitCode().value_or(kNoExit), long(exitCode));
    QCOMPARE(!counter.malformed().empty(), malformed);
}

void TestSseCounter::splitAnywhere()
{
    // The network splits the stream at any byte; every split gives the same counts.
    const QByteArray stream(
        "data: {\"pid\":7}\n\ndata: {\"stream\":\"stdout\",\"line\":\"hello\"}\n\n"
        "data: {\"stream\":\"stdout\",\"line\":\"w\\u00f6rld\"}\r\n\r\n"
        "data: {\"exitCode\":0}\n\n");
    for (int cut = 0; cut <= stream.size(); ++cut) {
        SseCounter counter;
        counter.feed(stream.constData(), size_t(cut));
        counter.feed(stream.constData() + cut, size_t(stream.size() - cut));
        QCOMPARE(counter.outputBytes(), std::uint64_t(6 + 7));
        QCOMPARE(counter.lines(), std::uint64_t(2));
        QCOMPARE(counter.exitCode().value_or(-1), 0L);
    }
}

void TestSseCounter::jsonStringLength_data()
{
    QTest::addColumn<QByteArray>("text"); // after the opening quote
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("consumed");
    QTest::newRow("empty") << QByteArray("\"rest") << 0 << 1;
    QTest::newRow("plain") << QByteArray("abc\",") << 3 << 4;
    QTest::newRow("escaped quote") << QByteArray("a\\\"b\"") << 3 << 5;
    QTest::newRow("bad escape") << QByteArray("a\\qb\"") << -1 << 0;
    QTest::newRow("short unicode") << QByteArray("\\u12\"") << -1 << 0;
    QTest::newRow("lone high surrogate") << QByteArray("\\ud83d\"") << -1 << 0;
    QTest::newRow("no closing quote") << QByteArray("abc") << -1 << 0;
}

void TestSseCounter::jsonStringLength()
{
    QFETCH(QByteArray, text);
    QFETCH(int, length);
    QFETCH(int, consumed);
    const char* end = nullptr;
    const long n = lizard::bench::decodedJsonStringLength(text.constData(),
                                                          text.constData() + text.size(), end);
    QCOMPARE(n, long(length));
    if (length >= 0)
        QCOMPARE(int(end - text.constData()), consumed);
}

QTEST_APPLESS_MAIN(TestSseCounter)
#include "tst_ssecounter.moc"
