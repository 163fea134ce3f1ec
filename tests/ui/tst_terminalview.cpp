// The terminal widget as a user sees it: what a program's output puts on the screen (text,
// colours, wide characters, the alternate screen, the title), and the bytes that keys,
// pastes and clicks send back to the program.
#include "support/screenshot.h"
#include "terminal/terminalscreen.h"
#include "ui/terminal/terminalview.h"

#include <QApplication>
#include <QClipboard>
#include <QElapsedTimer>
#include <QScrollBar>
#include <QSignalSpy>
#include <QtTest>
#include <array>

using lizard::ui::TerminalView;

namespace {

QByteArray esc(const char* s)
{
    return QByteArray(s).replace("\\e", "\x1b");
}

// The bytes a view sent to its program since the spy began, in order.
QByteArray sent(const QSignalSpy& spy)
{
    QByteArray out;
    for (const QList<QVariant>& args : spy)
        out += args.at(0).toByteArray();
    return out;
}

} // namespace

class TestTerminalView : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_view = std::make_unique<TerminalView>();
        m_view->resize(m_view->sizeHint());
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
        m_view->setFocus();
        m_view->flush();
    }
    void cleanup() { m_view.reset(); }

    void startsWithAnEightyByTwentyFourGrid()
    {
        QCOMPARE(m_view->columns(), 80);
        QCOMPARE(m_view->rows(), 24);
        QCOMPARE(m_view->screenText(), QString(23, QLatin1Char('\n')));
    }

    void plainTextNewlinesAndCarriageReturn()
    {
        m_view->feed("hello\r\nworld\r\n");
        m_view->feed("abc\rX\r\n");
        m_view->feed("ab\ncd");
        m_view->flush();
        QCOMPARE(m_view->lineText(0), "hello");
        QCOMPARE(m_view->lineText(1), "world");
        QCOMPARE(m_view->lineText(2), "Xbc");
        QCOMPARE(m_view->lineText(3), "ab");
        QCOMPARE(m_view->lineText(4), "  cd"); // LF alone keeps the column
        QVERIFY(m_view->screenText().startsWith("hello\nworld\nXbc\nab\n  cd\n"));
    }

    void sgrColoursAndAttributes()
    {
        m_view->feed(esc("plain\\e[31mR\\e[38;5;196mI\\e[38;2;1;2;3mT\\e[0m \\e[1mB\\e[0m"
                         "\\e[4mU\\e[0m\\e[3mI\\e[0m\\e[7mV\\e[0m\\e[44mb\\e[0m"));
        m_view->flush();
        const TerminalView::Cell plain = m_view->cellAt(0, 0);
        QCOMPARE(plain.text, "p");
        QVERIFY(!plain.bold && !plain.underline && !plain.italic && !plain.reverse);
        const TerminalView::Cell red = m_view->cellAt(0, 5);
        QCOMPARE(red.text, "R");
        QVERIFY2(red.fg != plain.fg && red.fg.red() > 150 && red.fg.green() < 110 &&
                     red.fg.blue() < 110,
                 qPrintable(red.fg.name()));
        QCOMPARE(m_view->cellAt(0, 6).fg, QColor(255, 0, 0)); // 38;5;196
        QCOMPARE(m_view->cellAt(0, 7).fg, QColor(1, 2, 3));   // 38;2;1;2;3
        QCOMPARE(m_view->cellAt(0, 8).fg, plain.fg);          // reset by 0m
        QVERIFY(m_view->cellAt(0, 9).bold);
        QVERIFY(m_view->cellAt(0, 10).underline);
        QVERIFY(m_view->cellAt(0, 11).italic);
        QVERIFY(m_view->cellAt(0, 12).reverse);
        const TerminalView::Cell blueBg = m_view->cellAt(0, 13);
        QVERIFY(blueBg.bg != plain.bg && blueBg.bg.blue() > blueBg.bg.red());
        QCOMPARE(m_view->lineText(0), "plainRIT BUIVb");
    }

    void wideCharactersAndCombiningMarks()
    {
        m_view->feed(QString::fromUtf8("日本x\r\ne\u0301!").toUtf8());
        m_view->flush();
        QCOMPARE(m_view->cellAt(0, 0).text, QString::fromUtf8("日"));
        QCOMPARE(m_view->cellAt(0, 0).width, 2);
        QCOMPARE(m_view->cellAt(0, 1).width, 0);
        QCOMPARE(m_view->cellAt(0, 2).text, QString::fromUtf8("本"));
        QCOMPARE(m_view->cellAt(0, 4).text, "x");
        QCOMPARE(m_view->lineText(0), QString::fromUtf8("日本x"));
        QCOMPARE(m_view->cellAt(1, 0).text, QString::fromUtf8("e\u0301"));
        QCOMPARE(m_view->cellAt(1, 0).width, 1);
        QCOMPARE(m_view->cellAt(1, 1).text, "!");
    }

    void alternateScreenRestoresThePrimaryOne()
    {
        m_view->feed("primary line\r\n$ ");
        m_view->feed(esc("\\e[?1049h\\e[H\\e[2Jfull-screen app"));
        m_view->flush();
        QVERIFY(m_view->isAlternateScreen());
        QCOMPARE(m_view->lineText(0), "full-screen app");
        QVERIFY(!m_view->screenText().contains("primary"));
        m_view->feed(esc("\\e[?1049l"));
        m_view->flush();
        QVERIFY(!m_view->isAlternateScreen());
        QCOMPARE(m_view->lineText(0), "primary line");
        QCOMPARE(m_view->lineText(1), "$");
        QVERIFY(!m_view->screenText().contains("full-screen"));
    }

    void titleAndBell()
    {
        QSignalSpy titles(m_view.get(), &TerminalView::titleChanged);
        QSignalSpy bells(m_view.get(), &TerminalView::bell);
        m_view->feed(esc("\\e]0;vim ~/notes.txt\a"));
        m_view->feed("\a");
        m_view->flush();
        QCOMPARE(m_view->title(), "vim ~/notes.txt");
        QCOMPARE(titles.count(), 1);
        QCOMPARE(titles.at(0).at(0).toString(), "vim ~/notes.txt");
        QCOMPARE(bells.count(), 1);
        m_view->feed(esc("\\e]2;second\\e\\\\"));
        m_view->flush();
        QCOMPARE(m_view->title(), "second");
    }

    void keysBecomeTheBytesATerminalSends_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<int>("modifiers");
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("a") << int(Qt::Key_A) << 0 << QByteArray("a");
        QTest::newRow("Ctrl+C") << int(Qt::Key_C) << int(Qt::ControlModifier) << QByteArray("\x03");
        QTest::newRow("Ctrl+D") << int(Qt::Key_D) << int(Qt::ControlModifier) << QByteArray("\x04");
        QTest::newRow("Ctrl+[") << int(Qt::Key_BracketLeft) << int(Qt::ControlModifier)
                                << QByteArray("\x1b");
        QTest::newRow("Alt+x") << int(Qt::Key_X) << int(Qt::AltModifier) << QByteArray("\x1bx");
        QTest::newRow("Up") << int(Qt::Key_Up) << 0 << esc("\\e[A");
        QTest::newRow("Left") << int(Qt::Key_Left) << 0 << esc("\\e[D");
        QTest::newRow("Home") << int(Qt::Key_Home) << 0 << esc("\\e[H");
        QTest::newRow("PageDown") << int(Qt::Key_PageDown) << 0 << esc("\\e[6~");
        QTest::newRow("F1") << int(Qt::Key_F1) << 0 << esc("\\eOP");
        QTest::newRow("F5") << int(Qt::Key_F5) << 0 << esc("\\e[15~");
        QTest::newRow("F12") << int(Qt::Key_F12) << 0 << esc("\\e[24~");
        QTest::newRow("Tab") << int(Qt::Key_Tab) << 0 << QByteArray("\t");
        QTest::newRow("Backtab") << int(Qt::Key_Backtab) << int(Qt::ShiftModifier) << esc("\\e[Z");
        QTest::newRow("Backspace") << int(Qt::Key_Backspace) << 0 << QByteArray("\x7f");
        QTest::newRow("Enter") << int(Qt::Key_Return) << 0 << QByteArray("\r");
        QTest::newRow("Escape") << int(Qt::Key_Escape) << 0 << QByteArray("\x1b");
        QTest::newRow("Delete") << int(Qt::Key_Delete) << 0 << esc("\\e[3~");
    }
    void keysBecomeTheBytesATerminalSends()
    {
        QFETCH(int, key);
        QFETCH(int, modifiers);
        QFETCH(QByteArray, bytes);
        QSignalSpy input(m_view.get(), &TerminalView::input);
        QTest::keyClick(m_view.get(), Qt::Key(key), Qt::KeyboardModifiers(modifiers));
        QCOMPARE(sent(input), bytes);
    }

    void applicationCursorModeChangesTheArrows()
    {
        QSignalSpy input(m_view.get(), &TerminalView::input);
        m_view->feed(esc("\\e[?1h"));
        m_view->flush();
        QTest::keyClick(m_view.get(), Qt::Key_Up);
        QCOMPARE(sent(input), esc("\\eOA"));
        input.clear();
        m_view->feed(esc("\\e[?1l"));
        m_view->flush();
        QTest::keyClick(m_view.get(), Qt::Key_Up);
        QCOMPARE(sent(input), esc("\\e[A"));
    }

    void tabStaysInTheTerminal()
    {
        QWidget window;
        auto* view = new TerminalView(&window);
        auto* other = new QWidget(&window);
        other->setFocusPolicy(Qt::StrongFocus);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        view->setFocus();
        QTRY_VERIFY(view->hasFocus());
        QSignalSpy input(view, &TerminalView::input);
        QTest::keyClick(view, Qt::Key_Tab);
        QVERIFY(view->hasFocus());
        QCOMPARE(sent(input), QByteArray("\t"));
    }

    // Focus events go to a program that asked for them (DECSET 1004), and to no other.
    void focusIsReportedWhenAsked()
    {
        QWidget window;
        auto* view = new TerminalView(&window);
        auto* other = new QWidget(&window);
        other->setFocusPolicy(Qt::StrongFocus);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy input(view, &TerminalView::input);
        view->setFocus();
        QTRY_VERIFY(view->hasFocus());
        other->setFocus();
        QTRY_VERIFY(other->hasFocus());
        QCOMPARE(sent(input), QByteArray()); // not asked: nothing
        view->feed(esc("\\e[?1004h"));
        view->flush();
        view->setFocus();
        QTRY_VERIFY(view->hasFocus());
        other->setFocus();
        QTRY_VERIFY(other->hasFocus());
        QCOMPARE(sent(input), esc("\\e[I\\e[O"));
        input.clear();
        view->feed(esc("\\e[?1004l"));
        view->flush();
        view->setFocus();
        QTRY_VERIFY(view->hasFocus());
        QCOMPARE(sent(input), QByteArray());
    }

    // The cursor takes the shape a program sets (CSI N SP q), as vim's insert mode does; a
    // reset gives the block back. Read from the pixels of the cursor's cell.
    void cursorShapeFollowsTheProgram()
    {
        QTRY_VERIFY(m_view->hasFocus()); // a block is filled only with the focus
        m_view->feed(esc("\\e[2J\\e[3;5H"));
        m_view->flush();
        const auto cursorPixels = [this] {
            QCoreApplication::processEvents();
            const QImage image = m_view->viewport()->grab().toImage();
            const QRect cell = m_view->cellRect(2, 4);
            const QColor cursor = m_view->cursorColor();
            int left = 0, bottom = 0, all = 0;
            for (int y = cell.top(); y <= cell.bottom(); ++y)
                for (int x = cell.left(); x <= cell.right(); ++x) {
                    if (image.pixelColor(x, y) != cursor)
                        continue;
                    ++all;
                    left += x < cell.left() + 3;
                    bottom += y > cell.bottom() - 3;
                }
            return std::array<int, 4>{all, left, bottom, cell.width() * cell.height()};
        };
        QCOMPARE(m_view->cursorShape(), TerminalView::CursorShape::Block);
        auto px = cursorPixels();
        QVERIFY2(px[0] > px[3] * 8 / 10, "a block fills its cell");
        m_view->feed(esc("\\e[6 q")); // steady bar
        m_view->flush();
        QCOMPARE(m_view->cursorShape(), TerminalView::CursorShape::Bar);
        px = cursorPixels();
        QVERIFY(px[0] > 0);
        QCOMPARE(px[1], px[0]);       // every cursor pixel at the cell's left edge
        m_view->feed(esc("\\e[4 q")); // steady underline
        m_view->flush();
        QCOMPARE(m_view->cursorShape(), TerminalView::CursorShape::Underline);
        px = cursorPixels();
        QVERIFY(px[0] > 0);
        QCOMPARE(px[2], px[0]);    // every cursor pixel at the cell's bottom
        m_view->feed(esc("\\ec")); // RIS
        m_view->flush();
        QCOMPARE(m_view->cursorShape(), TerminalView::CursorShape::Block);
    }

    void bracketedPaste()
    {
        QSignalSpy input(m_view.get(), &TerminalView::input);
        QApplication::clipboard()->setText("echo one\necho two");
        m_view->paste();
        QCOMPARE(sent(input), QByteArray("echo one\recho two"));
        input.clear();
        m_view->feed(esc("\\e[?2004h"));
        m_view->flush();
        m_view->paste();
        QCOMPARE(sent(input), esc("\\e[200~echo one\recho two\\e[201~"));
        input.clear();
        QTest::keyClick(m_view.get(), Qt::Key_V, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(sent(input), esc("\\e[200~echo one\recho two\\e[201~"));
    }

    void scrollbackKeepsTenThousandLinesAndFindsThem()
    {
        QByteArray lines;
        for (int i = 1; i <= 20000; ++i)
            lines += QByteArray("row-") + QByteArray::number(i).rightJustified(6, '0') + "-end\r\n";
        m_view->feed(lines);
        m_view->flush();
        QCOMPARE(m_view->scrollbackLines(), 10000);
        QCOMPARE(m_view->lineText(m_view->rows() - 2), "row-020000-end");
        QVERIFY(!m_view->find("row-000005-end", true)); // dropped from the ring
        QVERIFY(m_view->find("row-010000-end", true));  // early, but kept
        QCOMPARE(m_view->selectedText(), "row-010000-end");
        QScrollBar* bar = m_view->verticalScrollBar();
        QVERIFY(bar->value() < bar->maximum());  // scrolled back to the match
        QVERIFY(m_view->find("row-010001-end")); // forwards from there
        QCOMPARE(m_view->selectedText(), "row-010001-end");
        QVERIFY(m_view->find("row-019999-end")); // on the screen
        QVERIFY(!m_view->find("no such text"));
        // Shift+PageUp scrolls back; a key brings the view back to the prompt.
        bar->setValue(bar->maximum());
        QTest::keyClick(m_view.get(), Qt::Key_PageUp, Qt::ShiftModifier);
        QCOMPARE(bar->value(), bar->maximum() - m_view->rows());
        QTest::keyClick(m_view.get(), Qt::Key_A);
        QCOMPARE(bar->value(), bar->maximum());
    }

    void resizeChangesTheGridAndGivesLinesBack()
    {
        for (int i = 1; i <= 60; ++i)
            m_view->feed("line " + QByteArray::number(i) + "\r\n");
        m_view->flush();
        const int sbBefore = m_view->scrollbackLines();
        QCOMPARE(sbBefore, 60 - 23);
        QSignalSpy sizes(m_view.get(), &TerminalView::sizeChanged);
        const QSize before(m_view->columns(), m_view->rows());
        m_view->resize(m_view->width() + 200, m_view->height() + 160);
        QTRY_VERIFY(sizes.count() >= 1);
        QVERIFY(m_view->columns() > before.width());
        QVERIFY(m_view->rows() > before.height());
        QCOMPARE(sizes.last().at(0).toInt(), m_view->columns());
        QCOMPARE(sizes.last().at(1).toInt(), m_view->rows());
        // Growing pulled lines back from the scrollback; the last line stays above the cursor.
        const int grown = m_view->rows() - before.height();
        QCOMPARE(m_view->scrollbackLines(), sbBefore - grown);
        QCOMPARE(m_view->lineText(m_view->rows() - 2), "line 60");
        // Shrinking pushes them back.
        m_view->resize(m_view->sizeHint());
        QTRY_COMPARE(m_view->rows(), before.height());
        QCOMPARE(m_view->scrollbackLines(), sbBefore);
        QCOMPARE(m_view->lineText(m_view->rows() - 2), "line 60");
    }

    // A new width wraps the lines again: rows the terminal wrapped join, rows ended by a line
    // feed stay apart, the cursor keeps its place in its line, the scrollback too.
    void reflowOnANewWidth()
    {
        using lizard::terminal::TerminalScreen;
        TerminalScreen s(5, 10, 100);
        const auto write = [&s](const QByteArray& b) { s.write(b.constData(), size_t(b.size())); };
        write("abcdefghijKLMNO\r\nxy");
        QCOMPARE(s.rowText(0), QStringLiteral("abcdefghij"));
        QVERIFY(s.rowWrapped(0));
        QVERIFY(!s.rowWrapped(1));
        s.resize(5, 20);
        QCOMPARE(s.rowText(0), QStringLiteral("abcdefghijKLMNO"));
        QCOMPARE(s.rowText(1), QStringLiteral("xy"));
        QCOMPARE(s.cursorRow(), 1);
        QCOMPARE(s.cursorCol(), 2);
        write("Z");
        QCOMPARE(s.rowText(1), QStringLiteral("xyZ"));
        s.resize(5, 4); // abcd efgh ijKL MNO xyZ
        QCOMPARE(s.rowText(0), QStringLiteral("abcd"));
        QCOMPARE(s.rowText(2), QStringLiteral("ijKL"));
        QCOMPARE(s.rowText(3), QStringLiteral("MNO"));
        QCOMPARE(s.rowText(4), QStringLiteral("xyZ"));
        QCOMPARE(s.cursorRow(), 4);
        QCOMPARE(s.cursorCol(), 3);
        write("!");
        QCOMPARE(s.rowText(4), QStringLiteral("xyZ!"));
        s.resize(5, 10);
        QCOMPARE(s.rowText(0), QStringLiteral("abcdefghij"));
        QCOMPARE(s.rowText(1), QStringLiteral("KLMNO"));
        QCOMPARE(s.rowText(2), QStringLiteral("xyZ!"));
        QCOMPARE(s.scrollback().size(), 0);

        // Narrower than the screen holds: the first rows go to the scrollback, still one line.
        s.resize(5, 3); // abc def ghi jKL MNO xyZ ! -> 7 rows, 2 in the scrollback
        QCOMPARE(s.scrollback().size(), 2);
        QCOMPARE(s.scrollback().line(0).text, QStringLiteral("abc"));
        QVERIFY(s.scrollback().line(0).wrapped);
        QCOMPARE(s.rowText(4), QStringLiteral("!"));
        s.resize(5, 30);
        QCOMPARE(s.scrollback().size(), 0);
        QCOMPARE(s.rowText(0), QStringLiteral("abcdefghijKLMNO"));
        QCOMPARE(s.rowText(1), QStringLiteral("xyZ!"));

        // The cursor after a glyph in the last column (the pending wrap).
        TerminalScreen p(3, 5, 100);
        p.write("12345", 5);
        p.resize(3, 8);
        p.write("6", 1);
        QCOMPARE(p.rowText(0), QStringLiteral("123456"));
        TerminalScreen q(3, 5, 100);
        q.write("abcde", 5);
        q.resize(3, 3);
        q.write("f", 1);
        QCOMPARE(q.rowText(0), QStringLiteral("abc"));
        QCOMPARE(q.rowText(1), QStringLiteral("def"));

        // A full-screen program's alternate screen is not reflowed; the primary waits for it.
        TerminalScreen alt(3, 10, 100);
        const QByteArray text = "0123456789ab\x1b[?1049h\x1b[Hfull";
        alt.write(text.constData(), size_t(text.size()));
        alt.resize(3, 5);
        QCOMPARE(alt.rowText(0), QStringLiteral("full"));
        const QByteArray leave = "\x1b[?1049l";
        alt.write(leave.constData(), size_t(leave.size()));
        QCOMPARE(alt.rowText(0), QStringLiteral("01234")); // cut, as before reflow existed
    }

    void scrollbackKeepsAttributesAndWideCharacters()
    {
        m_view->feed(esc("\\e[1;31mred\\e[0m plain \\e[44m") +
                     QString::fromUtf8("日本e\u0301").toUtf8() + esc("\\e[0m\r\n"));
        for (int i = 0; i < m_view->rows() - 1; ++i) // the line scrolls off the top
            m_view->feed("\r\n");
        m_view->flush();
        QCOMPARE(m_view->scrollbackLines(), 1);
        QVERIFY(m_view->find(QString::fromUtf8("日本e\u0301"), true));
        // Growing by one row brings the line back from the scrollback, cell by cell.
        m_view->resize(m_view->width(), m_view->height() + cellHeight());
        QTRY_COMPARE(m_view->scrollbackLines(), 0);
        QCOMPARE(m_view->lineText(0), QString::fromUtf8("red plain 日本e\u0301"));
        QVERIFY(m_view->cellAt(0, 0).bold);
        QCOMPARE(m_view->cellAt(0, 0).fg, m_view->cellAt(0, 2).fg);
        QVERIFY(m_view->cellAt(0, 0).fg != m_view->cellAt(0, 4).fg);
        QCOMPARE(m_view->cellAt(0, 10).text, QString::fromUtf8("日"));
        QCOMPARE(m_view->cellAt(0, 10).width, 2);
        QCOMPARE(m_view->cellAt(0, 11).width, 0);
        QCOMPARE(m_view->cellAt(0, 11).bg, m_view->cellAt(0, 10).bg);
        QCOMPARE(m_view->cellAt(0, 14).text, QString::fromUtf8("e\u0301"));
    }

    void zoomChangesTheGrid()
    {
        const int cols = m_view->columns();
        QTest::keyClick(m_view.get(), Qt::Key_Equal, Qt::ControlModifier);
        QVERIFY(m_view->columns() < cols);
        QTest::keyClick(m_view.get(), Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(m_view->columns(), cols);
    }

    void mouseReportingWhenTheAppAsks()
    {
        QSignalSpy input(m_view.get(), &TerminalView::input);
        const QPoint cell32(2 + int(4.5 * cellWidth()),
                            1 + int(2.5 * cellHeight())); // col 4, row 2
        QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {}, cell32);
        QCOMPARE(sent(input), QByteArray()); // selects, sends nothing
        m_view->feed(esc("\\e[?1000h"));
        m_view->flush();
        QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {}, cell32);
        // X10 encoding: button+32, col+33, row+33; then the release (button 3).
        QCOMPARE(sent(input), esc("\\e[M") + QByteArray(" %#") + esc("\\e[M") + "#%#");
        input.clear();
        QTest::mouseClick(m_view->viewport(), Qt::LeftButton, Qt::ShiftModifier, cell32);
        QCOMPARE(sent(input), QByteArray()); // Shift selects even now
    }

    void wheelOnTheAlternateScreenSendsArrows()
    {
        m_view->feed(esc("\\e[?1049h"));
        m_view->flush();
        QSignalSpy input(m_view.get(), &TerminalView::input);
        QWheelEvent wheel(QPointF(10, 10), m_view->viewport()->mapToGlobal(QPointF(10, 10)),
                          QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(m_view->viewport(), &wheel);
        QCOMPARE(sent(input), esc("\\e[B\\e[B\\e[B"));
    }

    void selectionByDoubleClickAndCopy()
    {
        m_view->feed("git commit --amend\r\n");
        m_view->flush();
        const QPoint word(2 + int(5.5 * cellWidth()), 1 + cellHeight() / 2); // in "commit"
        QTest::mouseDClick(m_view->viewport(), Qt::LeftButton, {}, word);
        QCOMPARE(m_view->selectedText(), "commit");
        m_view->copy();
        QCOMPARE(QApplication::clipboard()->text(), "commit");
    }

    void cursorPositionReport()
    {
        QSignalSpy input(m_view.get(), &TerminalView::input);
        m_view->feed(esc("\\e[2;5H\\e[6n"));
        m_view->flush();
        QCOMPARE(sent(input), esc("\\e[2;5R"));
        input.clear();
        m_view->feed(esc("\\e[c")); // DA: a VT100-class terminal answers
        m_view->flush();
        QVERIFY(sent(input).startsWith(esc("\\e[?")));
        // A replay shows what the queries did to the screen but answers none of them (the
        // program asked long ago; an answer now would reach it as typing); live output after
        // it is answered again.
        input.clear();
        m_view->feedReplay(esc("\\e[c\\e[3;7H\\e[6nreplayed"));
        m_view->feed(esc("\\e[6n"));
        m_view->flush();
        QCOMPARE(sent(input), esc("\\e[3;15R"));
        QVERIFY(m_view->lineText(2).contains("replayed"));
    }

    void tenMegabytesInOneFeedDoNotBlock()
    {
        QByteArray big;
        big.reserve(10 * 1024 * 1024 + 100);
        for (int i = 0; big.size() < 10 * 1024 * 1024; ++i)
            big += "\x1b[32m" + QByteArray::number(i) + "\x1b[0m some output of a busy program\r\n";
        // feed() queues: most of the bytes are still waiting when it returns, so the call
        // cannot have parsed them in place (bench_terminalview prints how long slices take).
        m_view->feed(big);
        QVERIFY2(m_view->pendingBytes() > big.size() / 2,
                 qPrintable(QString::number(m_view->pendingBytes())));
        // The event loop keeps turning while the bytes are parsed in slices: each turn takes
        // a bounded bite (a time budget, so a slow host takes smaller bites) and every turn
        // makes progress. How long a turn takes is bench_terminalview's figure, not a test's.
        qint64 before = m_view->pendingBytes();
        for (int i = 0; i < 20 && m_view->pendingBytes() > 0; ++i) {
            QCoreApplication::processEvents();
            const qint64 now = m_view->pendingBytes();
            QVERIFY2(now < before, qPrintable(QString("turn %1 parsed nothing").arg(i)));
            QVERIFY2(before - now < 2 * 1024 * 1024,
                     qPrintable(QString("turn %1 parsed %2 bytes").arg(i).arg(before - now)));
            before = now;
        }
        m_view->flush();
        QCOMPARE(m_view->pendingBytes(), 0);
        QVERIFY(m_view->lineText(m_view->rows() - 2).endsWith("some output of a busy program"));
    }

    void resetClearsScreenAndScrollback()
    {
        for (int i = 0; i < 100; ++i)
            m_view->feed("text\r\n");
        m_view->feed(esc("\\e]0;t\a\\e[?1049h"));
        m_view->flush();
        m_view->reset();
        QCOMPARE(m_view->scrollbackLines(), 0);
        QVERIFY(!m_view->isAlternateScreen());
        QCOMPARE(m_view->screenText().trimmed(), QString());
        QCOMPARE(m_view->title(), QString());
    }

    void htopLikeScreen()
    {
        m_view->setDarkPalette(true);
        m_view->resize(900, 520);
        QTRY_VERIFY(m_view->columns() > 80);
        m_view->feed(htopScreen(m_view->columns(), m_view->rows()));
        m_view->flush();
        QCoreApplication::processEvents();
        QVERIFY(m_view->lineText(0).startsWith(" 1[||||"));
        QVERIFY(m_view->lineText(4).contains("PID USER"));
        QVERIFY(m_view->cellAt(4, 0).bg.green() > 100); // the header bar is green
        QVERIFY(m_view->lineText(m_view->rows() - 1).startsWith("F1Help"));
        QVERIFY(m_view->cellAt(m_view->rows() - 1, 2).bg.blue() > 100); // cyan labels
        QVERIFY(m_view->lineText(6).contains(QString::fromUtf8("└─ 日本語")));
        lizard::test::saveScreenshot(m_view.get(), "terminal-htop");
    }

private:
    int cellWidth() const { return QFontMetrics(m_view->terminalFont()).horizontalAdvance('M'); }
    int cellHeight() const { return qCeil(QFontMetricsF(m_view->terminalFont()).height()); }

    static QByteArray htopScreen(int cols, int rows)
    {
        QByteArray s = esc("\\e[?1049h\\e[?25l\\e[H\\e[2J");
        auto at = [&](int row, int col) {
            s += "\x1b[" + QByteArray::number(row + 1) + ';' + QByteArray::number(col + 1) + 'H';
        };
        const int bars[2] = {23, 9};
        for (int cpu = 0; cpu < 2; ++cpu) {
            at(cpu, 1);
            s += esc("\\e[1;36m") + QByteArray::number(cpu + 1) + esc("\\e[0m\\e[1m[\\e[0m");
            s += esc("\\e[32m") + QByteArray(bars[cpu], '|') + esc("\\e[31m") + "||" +
                 esc("\\e[0m") + QByteArray(30 - bars[cpu], ' ');
            s += esc("\\e[1m") + QByteArray::number(bars[cpu] * 3) + "%]" + esc("\\e[0m");
        }
        at(2, 1);
        s += esc("\\e[1;36mMem\\e[0m\\e[1m[\\e[0m\\e[32m||||||||\\e[34m|||\\e[33m||||") +
             QByteArray(15, ' ') + esc("\\e[1m1.21G/3.84G]\\e[0m");
        at(0, 50);
        s += esc("Tasks: \\e[1;36m42\\e[0m, \\e[32m113\\e[0m thr; \\e[1;32m2\\e[0m running");
        at(1, 50);
        s += esc("Load average: \\e[1m0.52 \\e[0m0.61 \\e[2m0.44\\e[0m");
        at(2, 50);
        s += esc("Uptime: \\e[1m3 days, 04:12:55\\e[0m");
        at(4, 0);
        QByteArray header =
            "    PID USER      PRI  NI  VIRT   RES   SHR S CPU% MEM%   TIME+  Command";
        s += esc("\\e[30;42m") + header.leftJustified(cols, ' ') + esc("\\e[0m");
        const char* procs[][2] = {
            {"   1234 lizard     20   0  812M  96M  41M S 12.3  2.4  0:42.17 ",
             "python3 -m ipykernel"},
            {"   1240 lizard     20   0  9.8M  3.1M 2.8M R  4.0  0.1  0:00.31 ", "└─ 日本語 top"},
            {"   1301 root       20   0  220M  11M  8.0M S  0.7  0.3  0:03.02 ",
             "/usr/sbin/sshd -D"},
            {"   1302 www-data   20   0  55M  5.2M  4.0M S  0.0  0.1  0:00.10 ",
             "nginx: worker process"},
        };
        for (int i = 0; i < 4; ++i) {
            at(5 + i, 0);
            if (i == 0)
                s += esc("\\e[30;46m");
            s += procs[i][0] + esc(i == 0 ? "" : "\\e[1;32m") + QByteArray(procs[i][1]) +
                 (i == 0 ? QByteArray(cols - 63 - 20, ' ') : QByteArray()) + esc("\\e[0m");
        }
        at(10, 0);
        s +=
            esc("\\e[38;5;208m256-colour orange\\e[0m \\e[38;2;120;200;255mtruecolour sky\\e[0m "
                "\\e[4munderlined\\e[0m \\e[3mitalic\\e[0m \\e[7mreverse\\e[0m e\xcc\x81t\xc3\xa9");
        at(rows - 1, 0);
        const char* keys[] = {"Help",   "Setup",  "Search", "Filter", "Tree",
                              "SortBy", "Nice -", "Nice +", "Kill",   "Quit"};
        for (int i = 0; i < 10; ++i)
            s += "F" + QByteArray::number(i + 1) + esc("\\e[30;46m") +
                 QByteArray(keys[i]).leftJustified(6, ' ') + esc("\\e[0m");
        at(11, 0);
        s += esc("\\e[?25h$ "); // the cursor, shown, after a prompt
        return s;
    }

    std::unique_ptr<TerminalView> m_view;
};

QTEST_MAIN(TestTerminalView)
#include "tst_terminalview.moc"
