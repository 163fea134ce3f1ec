// The terminal's fast path for text against libvterm alone: the same bytes through a
// TerminalScreen with the fast path and through one that gives every byte to libvterm, then
// the whole grid, the scrollback, the cursor, the pen, the modes and libvterm's own state
// (read back through its replies to queries and through what a glyph, a combining mark and
// REP do after it) must be the same. On a corpus of what programs print (plain and coloured
// text, long lines that wrap, wide and combining characters, tabs, CR/LF/BS, DEC graphics,
// scroll regions, insert mode, origin mode, the alternate screen) and on seeded random
// streams, fed whole, in random pieces, and for the short ones split at every position.

#include "terminal/terminalscreen.h"

#include <QRandomGenerator>
#include <QTest>
#include <functional>
#include <vector>

using lizard::terminal::GridCell;
using lizard::terminal::TerminalScreen;

namespace {

QByteArray operator""_b(const char* s, size_t n)
{
    return QByteArray(s, qsizetype(n));
}

QString printable(const QByteArray& bytes)
{
    QString out;
    for (const char ch : bytes) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == 0x1b)
            out += QStringLiteral("\\e");
        else if (c < 0x20 || c >= 0x7f)
            out += QStringLiteral("\\x%1").arg(c, 2, 16, QLatin1Char('0'));
        else
            out += QChar(c);
    }
    return out;
}

// Where libvterm's parser stands after each byte: 0 in the ground state, 1 inside an escape
// sequence, CSI or string; written apart from the tokenizer under test, after libvterm's
// parser.c.
std::vector<int> parserStates(const QByteArray& s)
{
    enum { Ground, Esc, Csi, Str, EscStr };
    std::vector<int> after(size_t(s.size()) + 1, 0);
    int state = Ground;
    int intermeds = 0;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == 0x18 || c == 0x1a) {
            state = Ground;
        } else if (c == 0x1b) {
            state = state == Str ? EscStr : Esc;
            intermeds = 0;
        } else if (c == 0x00 || c == 0x7f || (c < 0x20 && !(c == 0x07 && state == Str))) {
            // ignored or carried out without a change of state
        } else if (state == EscStr) {
            state = c == '\\' ? Ground : Esc;
            if (state == Esc) {
                --i; // the byte is read again as following ESC
                continue;
            }
        } else if (state == Esc) {
            if (c == 'P' || c == ']')
                state = Str;
            else if (c == '[')
                state = Csi;
            else if (c >= 0x20 && c <= 0x2f)
                ++intermeds;
            else if ((intermeds == 0 && c >= 0x40 && c < 0x60) || (c >= 0x30 && c < 0x7f))
                state = Ground;
        } else if (state == Csi) {
            if (c >= 0x40 && c <= 0x7e)
                state = Ground;
            else if (!(c >= 0x20 && c <= 0x3f))
                state = Ground; // an invalid CSI: dropped
            // (a digit after an intermediate also ends it in libvterm; the corpus has none)
        } else if (state == Str) {
            if (c == 0x07)
                state = Ground;
        }
        after[size_t(i) + 1] = state == Ground ? 0 : 1;
    }
    return after;
}

bool isText(unsigned char c)
{
    return c >= 0x20 && c != 0x7f;
}

// Whether the run of text before position k (from `from` on) ends inside a UTF-8 character:
// the tokenizer then holds the run until the rest comes.
bool endsInCharacter(const QByteArray& s, const std::vector<int>& states, qsizetype from,
                     qsizetype k, qsizetype* runStart)
{
    qsizetype start = k;
    while (start > from && isText(static_cast<unsigned char>(s[start - 1])) &&
           states[size_t(start - 1)] == 0)
        --start;
    *runStart = start;
    qsizetype p = k;
    int continuations = 0;
    while (p > start && continuations < 5 &&
           (static_cast<unsigned char>(s[p - 1]) & 0xc0) == 0x80) {
        --p;
        ++continuations;
    }
    if (p == start)
        return false;
    const auto lead = static_cast<unsigned char>(s[p - 1]);
    const int needs = lead >= 0xfc && lead < 0xfe   ? 5
                      : lead >= 0xf8 && lead < 0xfc ? 4
                      : lead >= 0xf0 && lead < 0xf8 ? 3
                      : lead >= 0xe0 && lead < 0xf0 ? 2
                      : lead >= 0xc0 && lead < 0xe0 ? 1
                                                    : 0;
    return continuations < needs;
}

// Split points as libvterm alone needs them to read what the fast path reads: a split inside
// a sequence moves past its end (the tokenizer hands sequences over whole); a split inside a
// UTF-8 character moves back to the start of its run of text (the tokenizer holds the run).
std::vector<qsizetype> referenceSplits(const QByteArray& s, const std::vector<qsizetype>& splits)
{
    const std::vector<int> states = parserStates(s);
    std::vector<qsizetype> out;
    qsizetype previous = 0;
    for (qsizetype k : splits) {
        while (k < s.size() && states[size_t(k)] != 0)
            ++k;
        qsizetype start = 0;
        if (k > 0 && k < s.size() && endsInCharacter(s, states, previous, k, &start))
            k = start;
        if (k > previous && k < s.size()) {
            out.push_back(k);
            previous = k;
        }
    }
    return out;
}

// Whether the fast path still holds text at the end of the stream (a character not finished).
bool holdsTail(const QByteArray& s, const std::vector<qsizetype>& splits)
{
    const std::vector<int> states = parserStates(s);
    qsizetype start = 0;
    return states.back() == 0 &&
           endsInCharacter(s, states, splits.empty() ? 0 : splits.back(), s.size(), &start);
}

struct Run
{
    std::unique_ptr<TerminalScreen> screen;
    QByteArray output;
    QString title;
    int bells = 0;
};

Run makeRun(int rows, int cols, bool fast)
{
    Run run;
    run.screen = std::make_unique<TerminalScreen>(rows, cols, 50);
    run.screen->setFastPath(fast);
    return run;
}

void listen(Run& run)
{
    run.screen->setListener({
        [&run](const char* s, size_t n) { run.output.append(s, qsizetype(n)); },
        [&run] { ++run.bells; },
        [&run](const QString& t) { run.title = t; },
    });
}

void writeSplit(TerminalScreen& screen, const QByteArray& s, const std::vector<qsizetype>& splits)
{
    qsizetype from = 0;
    for (qsizetype k : splits) {
        screen.write(s.constData() + from, size_t(k - from));
        from = k;
    }
    screen.write(s.constData() + from, size_t(s.size() - from));
}

QString cellString(const GridCell& c)
{
    return QStringLiteral("U+%1+%2 w%3 fg%4 bg%5 f%6")
        .arg(uint(c.ch), 0, 16)
        .arg(uint(c.mark), 0, 16)
        .arg(c.width)
        .arg(c.attr.fg, 0, 16)
        .arg(c.attr.bg, 0, 16)
        .arg(c.attr.flags);
}

// The first difference between the two screens, or an empty string.
QString difference(const Run& a, const Run& b)
{
    const TerminalScreen& x = *a.screen;
    const TerminalScreen& y = *b.screen;
    if (x.rows() != y.rows() || x.cols() != y.cols())
        return QStringLiteral("size");
    for (int r = 0; r < x.rows(); ++r) {
        for (int c = 0; c < x.cols(); ++c) {
            const GridCell& p = x.cell(r, c);
            const GridCell& q = y.cell(r, c);
            if (p.ch != q.ch || p.mark != q.mark || p.width != q.width || !(p.attr == q.attr))
                return QStringLiteral("cell %1,%2: %3 vs %4")
                    .arg(r)
                    .arg(c)
                    .arg(cellString(p), cellString(q));
        }
        if (x.rowWrapped(r) != y.rowWrapped(r))
            return QStringLiteral("row %1 wrapped %2 vs %3")
                .arg(r)
                .arg(x.rowWrapped(r))
                .arg(y.rowWrapped(r));
    }
    if (x.cursorRow() != y.cursorRow() || x.cursorCol() != y.cursorCol())
        return QStringLiteral("cursor %1,%2 vs %3,%4")
            .arg(x.cursorRow())
            .arg(x.cursorCol())
            .arg(y.cursorRow())
            .arg(y.cursorCol());
    if (!(x.pen() == y.pen()))
        return QStringLiteral("pen");
    if (x.isAltScreen() != y.isAltScreen() || x.cursorVisible() != y.cursorVisible() ||
        x.reverseVideo() != y.reverseVideo() || x.mouseMode() != y.mouseMode() ||
        x.cursorShape() != y.cursorShape())
        return QStringLiteral("modes");
    if (x.scrollback().size() != y.scrollback().size())
        return QStringLiteral("scrollback size %1 vs %2")
            .arg(x.scrollback().size())
            .arg(y.scrollback().size());
    for (int i = 0; i < x.scrollback().size(); ++i) {
        const auto& p = x.scrollback().line(i);
        const auto& q = y.scrollback().line(i);
        bool same = p.text == q.text && p.wrapped == q.wrapped && p.offsets == q.offsets &&
                    p.runs.size() == q.runs.size();
        for (size_t k = 0; same && k < p.runs.size(); ++k)
            same = p.runs[k].cells == q.runs[k].cells && p.runs[k].chars == q.runs[k].chars &&
                   p.runs[k].attr == q.runs[k].attr;
        if (!same)
            return QStringLiteral("scrollback line %1: %2 vs %3").arg(i).arg(p.text, q.text);
    }
    if (a.output != b.output)
        return QStringLiteral("replies %1 vs %2").arg(printable(a.output), printable(b.output));
    if (a.title != b.title || a.bells != b.bells)
        return QStringLiteral("title or bell");
    return {};
}

// What is left of libvterm's state after a stream, shown: where the cursor is (DSR), the
// modes it answers for (DECRQM), margins, pen and protection (DECRQSS); a combining mark (it
// joins the stream's last glyph if the cursor is still after it); a glyph and REP of it (not
// of the mark: after a mark on its own, libvterm alone would repeat it for ever); a glyph
// (the pending wrap, insert mode, the character set) and a mark; a line feed (LNM) and the
// cursor again.
const QByteArray kProbe = "\x1b[6n\x1b[?6$p\x1b[?7$p\x1b[?69$p\x1b[?25$p\x1b[?1049$p"
                          "\x1bP$qr\x1b\\\x1bP$qs\x1b\\\x1bP$qm\x1b\\\x1bP$q\"q\x1b\\"
                          "\xcc\x81\x1b[6nQ\x1b[2bq\xcc\x81\x1b[6n\n\x1b[6n"_b;

} // namespace

class TestTerminalFastPath : public QObject
{
    Q_OBJECT

    int m_compared = 0;

    // Feeds `stream` and the probe to a fast screen in the pieces `splits` cuts, and to a
    // libvterm-only screen in the pieces libvterm needs for the same reading; compares.
    bool same(const QByteArray& stream, const std::vector<qsizetype>& splits, int rows, int cols,
              QString* why)
    {
        Run fast = makeRun(rows, cols, true);
        Run ref = makeRun(rows, cols, false);
        listen(fast);
        listen(ref);
        writeSplit(*fast.screen, stream, splits);
        writeSplit(*ref.screen, stream, referenceSplits(stream, splits));
        ++m_compared;
        // Text waiting for the rest of its last character shows with the next write.
        QString diff = holdsTail(stream, splits) ? QString() : difference(fast, ref);
        if (diff.isEmpty()) {
            // libvterm's hidden state: the probe shows it.
            fast.screen->write(kProbe.constData(), size_t(kProbe.size()));
            ref.screen->write(kProbe.constData(), size_t(kProbe.size()));
            diff = difference(fast, ref);
            if (!diff.isEmpty())
                diff = QStringLiteral("after the probe: ") + diff;
        }
        if (diff.isEmpty()) {
            const QByteArray leave = "\x1b[?1049l\x1b[r\x1b[H\x1b[6n";
            fast.screen->write(leave.constData(), size_t(leave.size()));
            ref.screen->write(leave.constData(), size_t(leave.size()));
            diff = difference(fast, ref);
            if (!diff.isEmpty())
                diff = QStringLiteral("on the primary screen: ") + diff;
        }
        if (!diff.isEmpty() && why) {
            QStringList cuts;
            for (qsizetype k : splits)
                cuts << QString::number(k);
            *why = QStringLiteral("%1 (%2x%3, split at [%4]) stream: %5")
                       .arg(diff)
                       .arg(rows)
                       .arg(cols)
                       .arg(cuts.join(QLatin1Char(',')), printable(stream));
        }
        return diff.isEmpty();
    }

    static QList<QByteArray> corpus();
    static QByteArray randomStream(QRandomGenerator& random, int tokens);

private slots:
    void corpusWhole_data();
    void corpusWhole();
    void corpusSplitAtEveryPosition();
    void randomStreams();
    void splitCharacterShowsOnce();
    void brokenSequencesAreHarmless();
    void cleanupTestCase() { qInfo("%d comparisons", m_compared); }
};

QList<QByteArray> TestTerminalFastPath::corpus()
{
    return {
        "hello, world\r\n$ "_b,
        "1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\r\n9\r\n10\r\n11\r\n12\r\n"_b,
        "a line that is much longer than the twelve columns of the small screen\r\nnext\r\n"_b,
        "exactly12chr\r\nexactly12chr\nno cr\n\rback"_b,
        "twelve chars\x08\x08XY\rZ\x08\x08\x08W"_b,
        "tab\there\tand\tthere\t\tend\r\n\ta\tb\tc\td\te\tf"_b,
        "\x1b[1;31mred\x1b[0m plain \x1b[38;5;208morange\x1b[m \x1b[38;2;10;20;30mrgb\x1b[48;5;4m"
        "bg\x1b[0m\r\n"_b,
        "wide \xe6\xbc\xa2\xe5\xad\x97 and \xf0\x9f\x98\x80 emoji\r\n"_b,
        "12345678901\xe6\xbc\xa2\xe5\xad\x97x\r\n"_b,
        "e\xcc\x81 a\xcc\x80\xcc\x81 \xcc\x81 alone\r\n"_b,
        "abcdefghijke\xcc\x81\r\nabcdefghijkl\xcc\x81z"_b,
        "\x1b(0lqqqqk\x1b(B\r\n\x1b(0x\x1b(Bmid\x1b(0x\r\nmqqqqj\x1b(B"_b,
        "\x1b)0\x0e"
        "lqk\x0f"
        "abc\x0e\xc3\xa9q\x0f"_b,
        "\x1b[2;4rline1\r\nline2\r\nline3\r\nline4\r\nline5\r\n\x1b[r\x1b[Hdone"_b,
        "\x1b[3;5r\x1b[?6h\x1b[Hin region\r\nsecond\r\nthird\r\nfourth\x1b[?6l end"_b,
        "abcdef\x1b[1;3H\x1b[4hINS\x1b[4l\x1b[3;1H\x1b[4hinsert wraps past the margin"_b,
        "\x1b[?7lno autowrap here, it overwrites\x1b[?7h\r\nwraps again here ok"_b,
        "\x1b[20hnewline mode\nsecond\x1b[20l\nthird"_b,
        "x\x1b[5bend\r\n\x1b[3;10Hab\x1b[3b\r\n"_b,
        "save\x1b"
        "7\x1b[5;5Hthere\x1b"
        "8back\x1b[s\x1b[u"_b,
        "\x1b[?1049h\x1b[Halt screen text that wraps around\x1b[?1049lprimary"_b,
        "\x1b[5;1Hbottom line text that scrolls\r\n\r\n\r\nmore\x1b[6;12HX\r\nY"_b,
        "\x1b]0;a title\x07text\x1b]2;other\x1b\\more"_b,
        "\x1b[2J\x1b[1;1H\x1b[7mreverse\x1b[27m \x1b[4munder\x1b[24m \x1b[9mstrike\x1b[29m"_b,
        "abc\x1b[2K\x1b[1Gdef\x1b[0J\x1b[1;2H\x1b[P\x1b[2@\x1b[L\x1b[M\x1b[2X"_b,
        "\x1b[?25l\x1b[5 q\x1b[?1000h\x1b[?5htext\x1b[?5l\x1b[?25h"_b,
        "\x1b#8\x1b[HE-filled\x1b[2;3Hx"_b,
        "\x1b[\"qprot\x1b[1\"qected\x1b[0\"q\x1b[1;1H\x1b[?K"_b,
        "\x1b#6double width\x1b[2;1Hnormal after\x1b[2J\x1b[Hagain"_b,
        "abcdefghijkl\x1b[6nmn\x1b[?6$p"_b,
        "caf\xc3\xa9 \xe2\x94\x80\xe2\x94\x82 \xce\xb1\xce\xb2\xce\xb3 \xd0\x96 \xe2\x82\xac\r\n"_b,
        "\x1b(Bascii set \xc3\xa9\xcc\x81 e\xcc\x81 \xc3\xa9"
        "e\xcc\x81x\r\n"_b,
        "\x1b(0\xc3\xa9qqq\x1b(B\r\n"_b,
        "\x1b[?69h\x1b[3;8swithin margins text\x1b[?69l after"_b,
        "\xe2\x94 broken \xff\xfe \x80 stray \xf0\x9f\x98 cut\r\nnext \xc3"_b,
        "\x1bN\xc3\xa9 single shift \x1bOx\r\n"_b,
        "\x1b"
        "clean after reset\x1b[31mred"_b,
        "\x1b[4;2r\x1b[4;1Hwrap at the bottom of the region and on\r\n\x1bMreverse\x1b"
        "D\x1b"
        "E"_b,
        "\x1b[10;1H\x1b[2;5rbelow the region goes down to the last row and stays\r\n\r\n"_b,
        "\x1b[1;12Hx\x1b[4h\x1b[1;12Hy\x1b[4lz"_b,
        "abc\x1b[1;1H\x1b[3C\xcc\x81 joins? \x1b[1;4H\xcc\x81"_b,
        "0123456789\xe6\xbc\xa2\xe5\xad\x97\r\n01234567890\xe6\xbc\xa2"_b,
    };
}

void TestTerminalFastPath::corpusWhole_data()
{
    QTest::addColumn<QByteArray>("stream");
    const QList<QByteArray> all = corpus();
    for (qsizetype i = 0; i < all.size(); ++i)
        QTest::newRow(QByteArray::number(i).constData()) << all[i];
}

void TestTerminalFastPath::corpusWhole()
{
    QFETCH(QByteArray, stream);
    QString why;
    QVERIFY2(same(stream, {}, 6, 12, &why), qPrintable(why));
    QVERIFY2(same(stream, {}, 24, 80, &why), qPrintable(why));
    QVERIFY2(same(stream, {}, 3, 2, &why), qPrintable(why));
}

void TestTerminalFastPath::corpusSplitAtEveryPosition()
{
    const QList<QByteArray> all = corpus();
    for (const QByteArray& stream : all) {
        for (qsizetype k = 1; k < stream.size(); ++k) {
            QString why;
            QVERIFY2(same(stream, {k}, 6, 12, &why), qPrintable(why));
        }
        // And byte by byte.
        std::vector<qsizetype> every;
        for (qsizetype k = 1; k < stream.size(); ++k)
            every.push_back(k);
        QString why;
        QVERIFY2(same(stream, every, 6, 12, &why), qPrintable(why));
    }
}

QByteArray TestTerminalFastPath::randomStream(QRandomGenerator& random, int tokens)
{
    static const QList<QByteArray> words = {
        "a"_b,
        "word"_b,
        " "_b,
        "  "_b,
        "0123456789"_b,
        "lorem ipsum dolor"_b,
        "x"_b,
        "q"_b,
        "\xc3\xa9"_b,
        "\xe2\x94\x80"_b,
        "\xe6\xbc\xa2"_b,
        "\xf0\x9f\x98\x80"_b,
        "\xcc\x81"_b,
        "e\xcc\x81"_b,
        "\xe2\x82\xac"_b,
        "\xd0\x96\xd0\xb8"_b,
        "\xef\xbc\xa1"_b,
        "\xe3\x81\x82\xe3\x81\x84"_b,
        "a\xcc\x80\xcc\x81"_b,
    };
    static const QList<QByteArray> controls = {
        "\r"_b,
        "\n"_b,
        "\r\n"_b,
        "\x08"_b,
        "\t"_b,
        "\x0b"_b,
        "\x0c"_b,
        "\x0e"_b,
        "\x0f"_b,
        "\x07"_b,
        QByteArray(1, '\0'),
        "\x7f"_b,
    };
    static const QList<QByteArray> escapes = {
        "\x1b"
        "7"_b,
        "\x1b"
        "8"_b,
        "\x1b"
        "D"_b,
        "\x1b"
        "E"_b,
        "\x1b"
        "M"_b,
        "\x1b(0"_b,
        "\x1b(B"_b,
        "\x1b)0"_b,
        "\x1b(A"_b,
        "\x1bn"_b,
        "\x1bo"_b,
        "\x1bN"_b,
        "\x1bO"_b,
        "\x1b#8"_b,
        "\x1b#6"_b,
        "\x1b#5"_b,
        "\x1b"
        "c"_b,
        "\x1b="
        ""_b,
        "\x1b>"_b,
        "\x1bH"_b,
        "\x1b]0;title\x07"_b,
        "\x1b]2;t\x1b\\"_b,
        "\x1bP$qm\x1b\\"_b,
        "\x1bP$qr\x1b\\"_b,
    };
    QByteArray out;
    auto n = [&](int bound) { return QByteArray::number(random.bounded(bound)); };
    for (int t = 0; t < tokens; ++t) {
        const int kind = random.bounded(100);
        if (kind < 45) {
            out += words[random.bounded(int(words.size()))];
        } else if (kind < 60) {
            out += controls[random.bounded(int(controls.size()))];
        } else if (kind < 70) {
            // SGR
            static const char* sgr[] = {"0",        "1",          "4", "7",     "22", "31", "42",
                                        "38;5;123", "48;2;1;2;3", "",  "39;49", "3",  "9"};
            out += "\x1b[" + QByteArray(sgr[random.bounded(13)]) + "m";
        } else if (kind < 82) {
            static const char finals[] = "ABCDEFGHJKLMPSTX@`adefhrs";
            const char f = finals[random.bounded(int(sizeof(finals) - 1))];
            if (f == 'H' || f == 'f' || f == 'r' || f == 's')
                out += "\x1b[" + n(9) + ";" + n(14) + f;
            else
                out += "\x1b[" + n(4) + f;
        } else if (kind < 88) {
            static const char* modes[] = {"?6", "?7", "?25", "?1049", "?47",  "?1047",
                                          "4",  "20", "?69", "?5",    "?1048"};
            out +=
                "\x1b[" + QByteArray(modes[random.bounded(11)]) + (random.bounded(2) ? "h" : "l");
        } else if (kind < 95) {
            out += escapes[random.bounded(int(escapes.size()))];
        } else if (kind < 97) {
            out += "x\x1b[" + n(20) + "b"; // REP after a glyph of width 1
        } else if (kind < 98) {
            static const char* other[] = {"\x1b[\"q", "\x1b[1\"q", "\x1b[g",  "\x1b[3g",
                                          "\x1b[2J",  "\x1b[?J",   "\x1b[6n", "\x1b[c"};
            out += other[random.bounded(8)];
        } else {
            static const QList<QByteArray> broken = {"\xe2\x94"_b, "\xff"_b,     "\x80"_b,
                                                     "\xc3"_b,     "\xf0\x9f"_b, "\xed\xa0\x80"_b,
                                                     "\xc0\xaf"_b};
            out += broken[random.bounded(int(broken.size()))];
        }
    }
    return out;
}

void TestTerminalFastPath::randomStreams()
{
    QRandomGenerator random(20240511);
    for (int i = 0; i < 400; ++i) {
        const quint32 seed = random.generate();
        QRandomGenerator streamRandom(seed);
        const QByteArray stream = randomStream(streamRandom, 20 + streamRandom.bounded(200));
        std::vector<qsizetype> splits;
        for (qsizetype k = 1 + streamRandom.bounded(16); k < stream.size();
             k += 1 + streamRandom.bounded(40))
            splits.push_back(k);
        const int rows = 2 + streamRandom.bounded(9);
        const int cols = 2 + streamRandom.bounded(20);
        QString why;
        QVERIFY2(same(stream, {}, rows, cols, &why),
                 qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(why)));
        QVERIFY2(same(stream, splits, rows, cols, &why),
                 qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(why)));
    }
}

void TestTerminalFastPath::splitCharacterShowsOnce()
{
    // libvterm alone shows a character split across two writes as two U+FFFD; the screen
    // waits for the rest of it.
    TerminalScreen screen(3, 20, 10);
    const QByteArray box = "ab\xe2\x94\x80\xe2\x94\x82"_b;
    for (qsizetype k = 1; k < box.size(); ++k) {
        screen.reset();
        screen.write(box.constData(), size_t(k));
        screen.write(box.constData() + k, size_t(box.size() - k));
        QCOMPARE(screen.rowText(0), QString::fromUtf8(box));
    }
    // A title split across writes is not lost either.
    QString title;
    screen.setListener({{}, {}, [&title](const QString& t) { title = t; }});
    screen.write("\x1b]0;my ti", 9);
    screen.write("tle\x07", 4);
    QCOMPARE(title, QStringLiteral("my title"));
}

void TestTerminalFastPath::brokenSequencesAreHarmless()
{
    // libvterm 0.1 writes past its parameter array after 16 of them, and repeats a glyph of
    // width 0 for ever on REP: neither reaches it.
    TerminalScreen screen(3, 20, 10);
    QByteArray many = "\x1b[";
    for (int i = 0; i < 100; ++i)
        many += "1;";
    many += "31mafter";
    screen.write(many.constData(), size_t(many.size()));
    QCOMPARE(screen.rowText(0), QStringLiteral("after"));
    const QByteArray rep = "\x1b[2J\x1b[H\x1b[5b\xcc\x81\x1b[5bok"_b;
    screen.write(rep.constData(), size_t(rep.size()));
    QVERIFY(screen.rowText(0).endsWith(QStringLiteral("ok")));
}

QTEST_GUILESS_MAIN(TestTerminalFastPath)
#include "tst_terminalfastpath.moc"
