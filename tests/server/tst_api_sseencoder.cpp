// The SSE encoder of streamed exec output: line splitting, JSON escaping, UTF-8 repair.
#include "api/sseencoder.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using lizard::api::LineSplitter;

namespace {

// Decodes "data: {...}\n\n" events back into (stream, line) pairs; fails on invalid JSON.
QList<QPair<QString, QByteArray>> decode(const std::string& events, bool* ok)
{
    QList<QPair<QString, QByteArray>> out;
    *ok = true;
    const QByteArray all = QByteArray::fromStdString(events);
    for (const QByteArray& block : all.split('\n')) {
        if (block.isEmpty())
            continue;
        if (!block.startsWith("data: ")) {
            *ok = false;
            continue;
        }
        QJsonParseError err;
        const auto doc = QJsonDocument::fromJson(block.mid(6), &err);
        if (err.error != QJsonParseError::NoError || !doc.isObject()) {
            *ok = false;
            continue;
        }
        out.append({doc.object().value("stream").toString(),
                    doc.object().value("line").toString().toUtf8()});
    }
    return out;
}

} // namespace

class TestSseEncoder : public QObject
{
    Q_OBJECT

private slots:
    void splitsLines_data()
    {
        QTest::addColumn<QList<QByteArray>>("chunks");
        QTest::addColumn<QList<QByteArray>>("lines");
        QTest::newRow("one line") << QList<QByteArray>{"hello\n"} << QList<QByteArray>{"hello"};
        QTest::newRow("two in one chunk")
            << QList<QByteArray>{"a\nb\n"} << QList<QByteArray>{"a", "b"};
        QTest::newRow("split across chunks")
            << QList<QByteArray>{"hel", "lo\nwor", "ld\n"} << QList<QByteArray>{"hello", "world"};
        QTest::newRow("partial last line flushed")
            << QList<QByteArray>{"a\nno newline"} << QList<QByteArray>{"a", "no newline"};
        QTest::newRow("empty lines kept")
            << QList<QByteArray>{"\n\nx\n"} << QList<QByteArray>{"", "", "x"};
        QTest::newRow("carriage return kept")
            << QList<QByteArray>{"a\r\n"} << QList<QByteArray>{"a\r"};
        QTest::newRow("quotes and backslashes")
            << QList<QByteArray>{"say \"hi\" \\o/\n"} << QList<QByteArray>{"say \"hi\" \\o/"};
        QTest::newRow("control characters")
            << QList<QByteArray>{QByteArray("a\tb\x01\x1f", 6) + "\n"}
            << QList<QByteArray>{QByteArray("a\tb\x01\x1f", 6)};
        QTest::newRow("utf-8 split across chunks") << QList<QByteArray>{"gr\xC3", "\xBC\xC3\x9F"
                                                                                  "e\n"}
                                                   << QList<QByteArray>{"gr\xC3\xBC\xC3\x9F"
                                                                        "e"};
        QTest::newRow("invalid utf-8 replaced") << QList<QByteArray>{"a\xFF\xC3(b\n"}
                                                << QList<QByteArray>{"a\xEF\xBF\xBD\xEF\xBF\xBD(b"};
        QTest::newRow("surrogate encoding replaced")
            << QList<QByteArray>{"\xED\xA0\x80\n"}
            << QList<QByteArray>{"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"};
        QTest::newRow("nul byte") << QList<QByteArray>{QByteArray("a\0b\n", 4)}
                                  << QList<QByteArray>{QByteArray("a\0b", 3)};
    }

    void splitsLines()
    {
        QFETCH(QList<QByteArray>, chunks);
        QFETCH(QList<QByteArray>, lines);
        LineSplitter splitter("stdout");
        std::string events;
        for (const QByteArray& c : chunks)
            splitter.feed(std::string_view(c.constData(), size_t(c.size())), events);
        splitter.flush(events);
        bool ok = false;
        const auto decoded = decode(events, &ok);
        QVERIFY2(ok, events.c_str());
        QCOMPARE(decoded.size(), lines.size());
        for (int i = 0; i < lines.size(); ++i) {
            QCOMPARE(decoded[i].first, QStringLiteral("stdout"));
            QCOMPARE(decoded[i].second, lines[i]);
        }
    }

    void splitsVeryLongLines()
    {
        LineSplitter splitter("stderr");
        // 2.5 MiB of a 2-byte character without a newline, fed in odd-sized chunks.
        QByteArray big;
        for (int i = 0; i < (5 << 19) / 2; ++i)
            big += "\xC3\xA9";
        std::string events;
        for (qsizetype pos = 0; pos < big.size(); pos += 65537)
            splitter.feed(std::string_view(big.constData() + pos,
                                           size_t(std::min<qsizetype>(65537, big.size() - pos))),
                          events);
        splitter.flush(events);
        bool ok = false;
        const auto decoded = decode(events, &ok);
        QVERIFY(ok);
        QCOMPARE(decoded.size(), 3);
        QByteArray joined;
        for (const auto& [stream, line] : decoded) {
            QCOMPARE(stream, QStringLiteral("stderr"));
            QVERIFY(line.size() <= int(lizard::api::kMaxLineBytes));
            QVERIFY(!line.contains("\xEF\xBF\xBD")); // cut on character boundaries
            joined += line;
        }
        QCOMPARE(joined, big);
    }

    void utf8Boundary()
    {
        const std::string s = "ab\xE2\x82\xAC"; // "ab€"
        QCOMPARE(lizard::api::utf8Boundary(s, 3), size_t(2));
        QCOMPARE(lizard::api::utf8Boundary(s, 4), size_t(2));
        QCOMPARE(lizard::api::utf8Boundary(s, 5), size_t(5));
        QCOMPARE(lizard::api::utf8Boundary(s, 2), size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestSseEncoder)
#include "tst_api_sseencoder.moc"
