// Navigating a big notebook, as a user does it: Ctrl+F and the find bar (count, Enter and
// Shift+Enter move the current cell and scroll it into view, matches in outputs, case), replace
// and replace all (sources only, dirty, Ctrl+Z in a cell undoes its part), Esc; the table of
// contents (Ctrl+Shift+K, nested headings, a click jumps, edits update it); 2,000 cells.
#include "../notebook/scriptedrunner.h"
#include "support/screenshot.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/findbar.h"
#include "ui/notebook/notebookfinder.h"
#include "ui/notebook/notebooknavigator.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/outputview.h"
#include "ui/notebook/tocpanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTextEdit>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

using namespace lizard::notebook;
using namespace lizard::ui::notebook;

// Sections of the big notebook: 6 cells each (with one more) make it 2,000 cells.
constexpr int kSections = 333;

class TestNotebookNav : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void findCountsAndMoves();
    void findsInOutputs();
    void caseToggle();
    void replaceAllIsUndoablePerCell();
    void replaceCurrentGoesOn();
    void escapeCloses();
    void tableOfContentsJumps();
    void tableOfContentsFollowsEdits();
    void bigNotebookStaysResponsive();

private:
    CellListWidget* list() const { return m_page->cells(); }
    FindBar* bar() const { return m_page->navigator()->findBar(); }
    NotebookData sample(int sections) const;
    void open(const NotebookData& data);
    // The cell is at least partly inside the visible part of the list.
    bool inView(int cell) const
    {
        CellWidget* w = list()->cellWidget(cell);
        const int top = w->y() - list()->verticalScrollBar()->value();
        return top < list()->viewport()->height() && top + w->height() > 0;
    }
    void key(int k, Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : list(),
                        Qt::Key(k), mods);
        // The offscreen platform deactivates the window when a panel first changes its layout
        // (Ctrl+I's help panel does the same): give the window back, as a desktop keeps it.
        if (mods & Qt::ControlModifier) {
            QTest::qWait(30);
            QApplication::setActiveWindow(m_page);
        }
    }

    lizard::notebook::test::ScriptedRunner* m_runner = nullptr;
    NotebookPage* m_page = nullptr;
};

NotebookData TestNotebookNav::sample(int sections) const
{
    // Sections of a markdown heading, a sub-heading and code cells with outputs; "total" is in
    // every code cell's source and every stream output.
    NotebookData data;
    for (int s = 0; s < sections; ++s) {
        CellData heading;
        heading.type = CellType::Markdown;
        heading.source = QString("# Section %1\nWhat this part computes.").arg(s + 1);
        data.cells.push_back(heading);
        CellData sub;
        sub.type = CellType::Markdown;
        sub.source = QString("## Details %1").arg(s + 1);
        data.cells.push_back(sub);
        for (int c = 0; c < 4; ++c) {
            CellData code;
            code.source = QString("total = sum(range(%1))\nprint('total', total)").arg(s * 10 + c);
            code.executionCount = s * 4 + c + 1;
            code.outputs.push_back(
                StreamOutput{"stdout", QString("total %1\n").arg(s * 10 + c), std::nullopt});
            data.cells.push_back(code);
        }
    }
    CellData failing;
    failing.source = "undefined_name";
    failing.outputs.push_back(
        ErrorOutput{"NameError",
                    "name 'undefined_name' is not defined",
                    {"\x1b[0;31mNameError\x1b[0m: name 'undefined_name' is not defined"}});
    data.cells.push_back(failing);
    return data;
}

void TestNotebookNav::open(const NotebookData& data)
{
    m_page->document()->reset(data);
    QTRY_COMPARE(list()->count(), int(data.cells.size()));
    list()->setCurrentIndex(0);
    list()->enterCommandMode();
}

void TestNotebookNav::init()
{
    m_runner = new lizard::notebook::test::ScriptedRunner;
    m_page = new NotebookPage("sb-test", m_runner, nullptr);
    m_page->resize(1000, 700);
    m_page->show();
    QApplication::setActiveWindow(m_page);
    QVERIFY(QTest::qWaitForWindowActive(m_page));
    open(sample(6));
}

void TestNotebookNav::cleanup()
{
    m_page->document()->setClean();
    delete m_page;
    m_page = nullptr;
}

void TestNotebookNav::findCountsAndMoves()
{
    QVERIFY(!bar()->isVisible());
    key(Qt::Key_F, Qt::ControlModifier);
    QVERIFY(bar()->isVisible());
    QTRY_VERIFY(bar()->findField()->hasFocus());
    QTest::keyClicks(bar()->findField(), "total");
    // 6 sections x 4 code cells: 3 in the source, 1 in the output.
    QTRY_COMPARE(bar()->countText(), QString("1 of 96"));
    NotebookFinder* finder = m_page->navigator()->finder();
    QCOMPARE(finder->matches()[0].cell, 2);
    QCOMPARE(list()->currentIndex(), 2);
    // Enter goes on within the cell's source, then to its output, then to the next cell.
    key(Qt::Key_Return);
    QCOMPARE(bar()->countText(), QString("2 of 96"));
    key(Qt::Key_Return);
    QCOMPARE(bar()->countText(), QString("3 of 96"));
    key(Qt::Key_F3);
    QCOMPARE(bar()->countText(), QString("4 of 96"));
    QCOMPARE(finder->matches()[3].place, SearchMatch::Place::InOutput);
    QCOMPARE(list()->currentIndex(), 2);
    key(Qt::Key_Return);
    QCOMPARE(bar()->countText(), QString("5 of 96"));
    QCOMPARE(list()->currentIndex(), 3);
    // The keyboard stays in the find field while the current cell moves.
    QVERIFY(bar()->findField()->hasFocus());
    // Previous from the first match wraps to the last: the last code cell's output, far below.
    for (int i = 0; i < 5; ++i)
        key(Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(bar()->countText(), QString("96 of 96"));
    const int last = finder->matches().last().cell;
    QCOMPARE(list()->currentIndex(), last);
    QTRY_VERIFY(inView(last));
    QVERIFY(!inView(0));
    // A source match is selected in the editor; all of the cell's are marked.
    key(Qt::Key_F3, Qt::ShiftModifier);
    QCOMPARE(bar()->countText(), QString("95 of 96"));
    const SearchMatch source = finder->matches()[94];
    QCOMPARE(source.place, SearchMatch::Place::InSource);
    CellEditor* editor = list()->cellWidget(source.cell)->editor();
    QCOMPARE(editor->textCursor().selectedText(), QString("total"));
    QCOMPARE(editor->textCursor().selectionStart(), source.start);
    QCOMPARE(editor->extraSelections().size(), 3);
    lizard::test::saveScreenshot(m_page, "notebook-find");
}

void TestNotebookNav::findsInOutputs()
{
    key(Qt::Key_F, Qt::ControlModifier);
    // Only in the error's traceback (shown without its colour codes) and the source.
    QTest::keyClicks(bar()->findField(), "is not defined");
    QTRY_COMPARE(bar()->countText(), QString("1 of 2"));
    NotebookFinder* finder = m_page->navigator()->finder();
    QCOMPARE(finder->matches()[0].place, SearchMatch::Place::InOutput);
    const int cell = finder->matches()[0].cell;
    QCOMPARE(cell, list()->count() - 1);
    QTRY_VERIFY(inView(cell));
    QCOMPARE(list()->currentIndex(), cell);
    // Highlighted where the user sees it: the error view's text, the current one selected.
    QList<QTextEdit*> views =
        list()->cellWidget(cell)->outputs()->view(0)->findChildren<QTextEdit*>();
    int marks = 0;
    bool selected = false;
    for (QTextEdit* view : views) {
        marks += int(view->extraSelections().size());
        selected = selected || view->textCursor().selectedText() == "is not defined";
    }
    QVERIFY2(marks >= 1, qPrintable(QString::number(marks)));
    QVERIFY(selected);
    // Nothing to find: no results, said so.
    bar()->findField()->setText("no such text anywhere");
    QTRY_COMPARE(bar()->countText(), QString("No results"));
}

void TestNotebookNav::caseToggle()
{
    key(Qt::Key_F, Qt::ControlModifier);
    QTest::keyClicks(bar()->findField(), "Section");
    QTRY_COMPARE(bar()->countText(), QString("1 of 6"));
    bar()->findField()->setText("SECTION");
    QTRY_COMPARE(bar()->countText(), QString("1 of 6"));
    QTest::mouseClick(bar()->caseButton(), Qt::LeftButton);
    QTRY_COMPARE(bar()->countText(), QString("No results"));
}

void TestNotebookNav::replaceAllIsUndoablePerCell()
{
    QVERIFY(!m_page->document()->isDirty());
    key(Qt::Key_H, Qt::ControlModifier);
    QVERIFY(bar()->isReplaceShown());
    QTest::keyClicks(bar()->findField(), "total");
    QTRY_COMPARE(bar()->countText(), QString("1 of 96"));
    bar()->replaceField()->setText("grand_total");
    QTest::mouseClick(bar()->findChild<QPushButton*>("replaceAll"), Qt::LeftButton);
    // Sources changed (72 occurrences in 24 cells), outputs not: they still say "total".
    QCOMPARE(bar()->findChild<QLabel*>("replacedCount")->text(), QString("72 replaced"));
    QVERIFY(m_page->document()->isDirty());
    Cell* first = m_page->document()->cell(2);
    QCOMPARE(first->source(),
             QString("grand_total = sum(range(0))\nprint('grand_total', grand_total)"));
    QCOMPARE(std::get<StreamOutput>(first->outputs()[0]).text, QString("total 0\n"));
    QTRY_COMPARE(m_page->navigator()->finder()->matches().value(0).start,
                 6); // found again: "grand_|total"
    QCOMPARE(bar()->countText(), QString("1 of 96"));
    // Ctrl+Z in one cell's editor undoes that cell's replacements, and only those.
    CellEditor* editor = list()->cellWidget(2)->editor();
    editor->setFocus();
    QTRY_VERIFY(editor->hasFocus());
    QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(first->source(), QString("total = sum(range(0))\nprint('total', total)"));
    QVERIFY(m_page->document()->cell(3)->source().startsWith("grand_total"));
}

void TestNotebookNav::replaceCurrentGoesOn()
{
    key(Qt::Key_H, Qt::ControlModifier);
    QTest::keyClicks(bar()->findField(), "total");
    QTRY_COMPARE(bar()->countText(), QString("1 of 96"));
    bar()->replaceField()->setText("sum_");
    QPushButton* replace = bar()->findChild<QPushButton*>("replaceOne");
    QTest::mouseClick(replace, Qt::LeftButton);
    QTRY_COMPARE(bar()->countText(), QString("1 of 95"));
    QCOMPARE(m_page->document()->cell(2)->source(),
             QString("sum_ = sum(range(0))\nprint('total', total)"));
    QVERIFY(m_page->document()->isDirty());
    QTest::mouseClick(replace, Qt::LeftButton);
    QTRY_COMPARE(bar()->countText(), QString("1 of 94"));
    QTest::mouseClick(replace, Qt::LeftButton);
    QTRY_COMPARE(bar()->countText(), QString("1 of 93"));
    QCOMPARE(m_page->document()->cell(2)->source(),
             QString("sum_ = sum(range(0))\nprint('sum_', sum_)"));
    // The current match is the output's now: Replace goes to the next source match instead.
    QCOMPARE(m_page->navigator()->finder()->matches()[0].place, SearchMatch::Place::InOutput);
    QTest::mouseClick(replace, Qt::LeftButton);
    QCOMPARE(bar()->countText(), QString("2 of 93"));
    QCOMPARE(list()->currentIndex(), 3);
    QCOMPARE(std::get<StreamOutput>(m_page->document()->cell(2)->outputs()[0]).text,
             QString("total 0\n"));
    QTest::mouseClick(replace, Qt::LeftButton);
    QTRY_COMPARE(bar()->countText(), QString("2 of 92"));
    QCOMPARE(m_page->document()->cell(3)->source(),
             QString("sum_ = sum(range(1))\nprint('total', total)"));
}

void TestNotebookNav::escapeCloses()
{
    key(Qt::Key_F, Qt::ControlModifier);
    QTest::keyClicks(bar()->findField(), "total");
    QTRY_COMPARE(bar()->countText(), QString("1 of 96"));
    QCOMPARE(list()->cellWidget(2)->editor()->extraSelections().size(), 3);
    key(Qt::Key_Escape);
    QVERIFY(!bar()->isVisible());
    QCOMPARE(list()->cellWidget(2)->editor()->extraSelections().size(), 0);
    // Opening again keeps the text, selected, and finds again.
    key(Qt::Key_F, Qt::ControlModifier);
    QCOMPARE(bar()->findField()->selectedText(), QString("total"));
    QTRY_COMPARE(bar()->countText(), QString("1 of 96"));
}

void TestNotebookNav::tableOfContentsJumps()
{
    TocPanel* toc = m_page->navigator()->tocPanel();
    QVERIFY(!toc->isVisible());
    key(Qt::Key_K, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY(toc->isVisible());
    QCOMPARE(toc->entries().size(), 12);
    QTreeWidget* tree = toc->tree();
    QCOMPARE(tree->topLevelItemCount(), 6);
    QCOMPARE(tree->topLevelItem(4)->text(0), QString("Section 5"));
    QCOMPARE(tree->topLevelItem(4)->child(0)->text(0), QString("Details 5"));
    // A click on "Details 5" (cell 6 * 4 + 1 = 25) makes it current, at the top of the view.
    QTreeWidgetItem* item = tree->topLevelItem(4)->child(0);
    tree->scrollToItem(item);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(item).center());
    QCOMPARE(list()->currentIndex(), 25);
    QTRY_VERIFY(inView(25));
    QTRY_VERIFY(std::abs(list()->cellWidget(25)->y() - list()->verticalScrollBar()->value()) < 20);
    lizard::test::saveScreenshot(m_page, "notebook-toc");
    // The menu's shortcut hides it again.
    key(Qt::Key_K, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY(!toc->isVisible());
}

void TestNotebookNav::tableOfContentsFollowsEdits()
{
    TocPanel* toc = m_page->navigator()->tocPanel();
    m_page->navigator()->tocAction()->setChecked(true);
    QTRY_COMPARE(toc->entries().size(), 12);
    // Typing a heading into a markdown cell's editor.
    list()->setCurrentIndex(1);
    list()->enterEditMode();
    CellEditor* editor = list()->cellWidget(1)->editor();
    QTRY_VERIFY(editor->hasFocus());
    editor->moveCursor(QTextCursor::End);
    QTest::keyClick(editor, Qt::Key_Return);
    QTest::keyClicks(editor, "### Inputs");
    QTRY_COMPARE(toc->entries().size(), 13);
    QCOMPARE(toc->tree()->topLevelItem(0)->child(0)->child(0)->text(0), QString("Inputs"));
    // A cell made code, a cell deleted: gone from the contents.
    list()->enterCommandMode();
    list()->setCurrentIndex(0);
    list()->setCurrentType(CellType::Code);
    QTRY_COMPARE(toc->entries().size(), 12);
    QCOMPARE(toc->tree()->topLevelItem(0)->text(0), QString("Details 1"));
}

void TestNotebookNav::bigNotebookStaysResponsive()
{
    // 2,000 cells (the sample is 6 cells a section + 1, and one more).
    NotebookData data = sample(kSections);
    CellData end;
    end.type = CellType::Markdown;
    end.source = "The end.";
    data.cells.push_back(end);
    QElapsedTimer load;
    load.start();
    open(data);
    QCOMPARE(list()->count(), kSections * 6 + 2);
    const qint64 shownMs = load.elapsed();
    // The cells past the first screen are made while the event loop turns; the search is
    // measured once they all are.
    QTRY_VERIFY_WITH_TIMEOUT(list()->isComplete(), 120000);
    qInfo("2,000-cell notebook: first screen shown in %lld ms, every cell made after %lld ms",
          shownMs, load.elapsed());
    // The offscreen platform deactivates the window as panels change their layout (see key()).
    QApplication::setActiveWindow(m_page);
    list()->setFocus();
    // The longest time the event loop is away while a search runs: what typing would feel.
    qint64 longest = 0;
    QElapsedTimer gap;
    gap.start();
    QTimer tick;
    tick.setInterval(5);
    connect(&tick, &QTimer::timeout, this, [&] { longest = std::max(longest, gap.restart()); });
    // Opening the bar re-lays the cells out once (the view gets shorter): measured apart.
    tick.start();
    gap.restart();
    key(Qt::Key_F, Qt::ControlModifier);
    QTest::qWait(300);
    const qint64 openStall = longest;
    longest = 0;
    gap.restart();
    QElapsedTimer found;
    found.start();
    QTest::keyClicks(bar()->findField(), "total");
    QTRY_COMPARE_WITH_TIMEOUT(bar()->countText(), QString("1 of %1").arg(kSections * 16), 20000);
    const qint64 searchMs = found.elapsed();
    NotebookFinder* finder = m_page->navigator()->finder();
    QElapsedTimer step;
    step.start();
    key(Qt::Key_Return, Qt::ShiftModifier); // to the last match, 2,000 cells down
    const qint64 jumpMs = step.elapsed();
    QCOMPARE(bar()->countText(), QString("%1 of %1").arg(kSections * 16));
    QTRY_VERIFY(inView(finder->matches().last().cell));
    tick.stop();
    qInfo("find 'total' in 2,000 cells: %lld ms typed to count; snapshot %lld ms, results applied "
          "%lld ms; longest UI stall while typing %lld ms (opening the bar: %lld ms); jump to last "
          "match %lld ms",
          searchMs, finder->lastSnapshotMs(), finder->lastApplyMs(), longest, openStall, jumpMs);
    // Loose bounds: the machine is shared; the figures above are what to read.
    QVERIFY2(longest < 2000, qPrintable(QString::number(longest)));
}

QTEST_MAIN(TestNotebookNav)
#include "tst_notebooknavui.moc"
