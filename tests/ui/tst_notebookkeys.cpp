// The notebook page's keyboard, as in JupyterLab: command and edit mode, A/B/D D/Z/M/Y/Up/Down,
// Shift/Ctrl/Alt+Enter, auto-indent and Tab in the editor; keys typed before a new notebook is
// there (TypeAhead) land in its first cell; the kernel's state in the header; the page's side
// panels and find bar made when first asked for. Runs go to a scripted runner.
#include "../notebook/scriptedrunner.h"
#include "notebook/runqueue.h"
#include "ui/elidinglabel.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/findbar.h"
#include "ui/notebook/notebookheader.h"
#include "ui/notebook/notebooknavigator.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/outputview.h"
#include "ui/notebook/richtextview.h"
#include "ui/notebook/tocpanel.h"
#include "ui/notebook/typeahead.h"
#include "ui/notebook/variableexplorer.h"

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTextBlock>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtTest>

using namespace lizard::notebook;
using namespace lizard::ui::notebook;
using Mode = CellListWidget::Mode;

class TestNotebookKeys : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void startsInCommandModeWithOneCell();
    void enterAndEscapeSwitchModes();
    void insertAboveAndBelow();
    void deleteTwiceAndUndo();
    void singleDDoesNothing();
    void markdownAndCodeTypes();
    void upAndDownMove();
    void shiftEnterRunsAndAdvances();
    void ctrlEnterRunsInPlace();
    void altEnterRunsAndInserts();
    void markdownRendersWhenRun();
    void autoIndentAndTab_data();
    void autoIndentAndTab();
    void titleShowsDirty();
    void kernelStateFollowsQueue();
    void kernelStartingSaysSo();
    void aLongNoticeKeepsThePageItsWidth();
    void theVariableExplorerIsMadeWhenFirstShown();
    void theFindBarAndContentsAreMadeWhenFirstAskedFor();
    void typeAheadLandsInTheFirstCell();
    void typeAheadEndsWithAClick();

private:
    CellListWidget* list() const { return m_page->cells(); }
    CellEditor* editor(int i) const { return list()->cellWidget(i)->editor(); }
    void key(int k, Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        QWidget* target = QApplication::focusWidget() ? QApplication::focusWidget() : list();
        QTest::keyClick(target, Qt::Key(k), mods);
    }

    lizard::notebook::test::ScriptedRunner* m_runner = nullptr;
    NotebookPage* m_page = nullptr;
};

void TestNotebookKeys::init()
{
    m_runner = new lizard::notebook::test::ScriptedRunner;
    m_page = new NotebookPage("sb-test", m_runner, nullptr);
    m_page->resize(900, 700);
    m_page->show();
    QApplication::setActiveWindow(m_page);
    QVERIFY(QTest::qWaitForWindowActive(m_page));
    list()->enterCommandMode();
}

void TestNotebookKeys::cleanup()
{
    m_page->document()->setClean();
    delete m_page;
    m_page = nullptr;
}

void TestNotebookKeys::startsInCommandModeWithOneCell()
{
    QCOMPARE(m_page->document()->cellCount(), 1);
    QCOMPARE(list()->count(), 1);
    QCOMPARE(list()->currentIndex(), 0);
    QCOMPARE(list()->mode(), Mode::Command);
    QVERIFY(list()->hasFocus());
    QVERIFY(!m_page->document()->isDirty());
}

void TestNotebookKeys::enterAndEscapeSwitchModes()
{
    key(Qt::Key_Return);
    QCOMPARE(list()->mode(), Mode::Edit);
    QTRY_VERIFY(editor(0)->hasFocus());
    QTest::keyClicks(editor(0), "x = 1");
    QCOMPARE(m_page->document()->cell(0)->source(), QString("x = 1"));
    key(Qt::Key_Escape);
    QCOMPARE(list()->mode(), Mode::Command);
    QVERIFY(list()->hasFocus());
    // In command mode letters are commands, not text.
    key(Qt::Key_Y);
    QCOMPARE(m_page->document()->cell(0)->source(), QString("x = 1"));
}

void TestNotebookKeys::insertAboveAndBelow()
{
    m_page->document()->cell(0)->setSource("first");
    key(Qt::Key_B);
    QCOMPARE(list()->count(), 2);
    QCOMPARE(list()->currentIndex(), 1);
    QCOMPARE(m_page->document()->cell(1)->source(), QString());
    key(Qt::Key_A);
    QCOMPARE(list()->count(), 3);
    QCOMPARE(list()->currentIndex(), 1);
    QCOMPARE(m_page->document()->cell(0)->source(), QString("first"));
    QCOMPARE(list()->mode(), Mode::Command);
}

void TestNotebookKeys::deleteTwiceAndUndo()
{
    m_page->document()->cell(0)->setSource("keep");
    key(Qt::Key_B);
    m_page->document()->cell(1)->setSource("gone");
    key(Qt::Key_D);
    QCOMPARE(list()->count(), 2);
    key(Qt::Key_D);
    QCOMPARE(list()->count(), 1);
    QCOMPARE(m_page->document()->cell(0)->source(), QString("keep"));
    QCOMPARE(list()->currentIndex(), 0);
    key(Qt::Key_Z);
    QCOMPARE(list()->count(), 2);
    QCOMPARE(m_page->document()->cell(1)->source(), QString("gone"));
    QCOMPARE(list()->currentIndex(), 1);
    // Deleting the last cell leaves an empty one to type in.
    key(Qt::Key_D);
    key(Qt::Key_D);
    key(Qt::Key_D);
    key(Qt::Key_D);
    QCOMPARE(list()->count(), 1);
    QCOMPARE(m_page->document()->cell(0)->source(), QString());
}

void TestNotebookKeys::singleDDoesNothing()
{
    key(Qt::Key_B);
    key(Qt::Key_D);
    key(Qt::Key_B); // anything in between cancels the pending D
    key(Qt::Key_D);
    QCOMPARE(list()->count(), 3);
}

void TestNotebookKeys::markdownAndCodeTypes()
{
    key(Qt::Key_M);
    QCOMPARE(m_page->document()->cell(0)->type(), CellType::Markdown);
    QCOMPARE(editor(0)->language(), QString("markdown"));
    QCOMPARE(list()->cellWidget(0)->promptText(), QString());
    key(Qt::Key_Y);
    QCOMPARE(m_page->document()->cell(0)->type(), CellType::Code);
    QCOMPARE(editor(0)->language(), QString("python"));
    QCOMPARE(list()->cellWidget(0)->promptText(), QString("In [ ]:"));
}

void TestNotebookKeys::upAndDownMove()
{
    key(Qt::Key_B);
    key(Qt::Key_B);
    QCOMPARE(list()->currentIndex(), 2);
    key(Qt::Key_Up);
    QCOMPARE(list()->currentIndex(), 1);
    key(Qt::Key_K);
    QCOMPARE(list()->currentIndex(), 0);
    key(Qt::Key_Up); // stays at the top
    QCOMPARE(list()->currentIndex(), 0);
    key(Qt::Key_Down);
    key(Qt::Key_J);
    QCOMPARE(list()->currentIndex(), 2);
    // In edit mode Up on the first line moves to the cell above, still editing.
    key(Qt::Key_Return);
    QTRY_VERIFY(editor(2)->hasFocus());
    key(Qt::Key_Up);
    QCOMPARE(list()->currentIndex(), 1);
    QCOMPARE(list()->mode(), Mode::Edit);
    QTRY_VERIFY(editor(1)->hasFocus());
}

void TestNotebookKeys::shiftEnterRunsAndAdvances()
{
    key(Qt::Key_Return);
    QTRY_VERIFY(editor(0)->hasFocus());
    QTest::keyClicks(editor(0), "out:hello");
    key(Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(m_runner->calls, QStringList{"out:hello"});
    // The last cell ran: a new cell below, in edit mode.
    QCOMPARE(list()->count(), 2);
    QCOMPARE(list()->currentIndex(), 1);
    QCOMPARE(list()->mode(), Mode::Edit);
    QTRY_VERIFY(editor(1)->hasFocus());
    CellWidget* ran = list()->cellWidget(0);
    QTRY_COMPARE(ran->outputs()->count(), 1);
    QTRY_COMPARE(ran->outputs()->view(0)->plainText(), QString("hello"));
    QTRY_COMPARE(ran->promptText(), QString("In [1]:"));

    // Shift+Enter in command mode on a cell that is not the last: run, select the next.
    list()->enterCommandMode();
    list()->setCurrentIndex(0);
    key(Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(list()->count(), 2);
    QCOMPARE(list()->currentIndex(), 1);
    QCOMPARE(list()->mode(), Mode::Command);
    QTRY_COMPARE(ran->promptText(), QString("In [2]:"));
}

void TestNotebookKeys::ctrlEnterRunsInPlace()
{
    m_page->document()->cell(0)->setSource("raise:ValueError:bad");
    key(Qt::Key_Return);
    QTRY_VERIFY(editor(0)->hasFocus());
    key(Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(list()->count(), 1);
    QCOMPARE(list()->currentIndex(), 0);
    QCOMPARE(list()->mode(), Mode::Command);
    QTRY_COMPARE(m_page->document()->cell(0)->status(), CellStatus::Error);
    QCOMPARE(list()->cellWidget(0)->statusText(), QString("error"));
    QTRY_VERIFY(list()->cellWidget(0)->outputs()->view(0)->plainText().contains("ValueError"));
}

void TestNotebookKeys::altEnterRunsAndInserts()
{
    key(Qt::Key_B); // two cells; select the first
    key(Qt::Key_Up);
    m_page->document()->cell(0)->setSource("out:a");
    key(Qt::Key_Return, Qt::AltModifier);
    QCOMPARE(m_runner->calls, QStringList{"out:a"});
    QCOMPARE(list()->count(), 3);
    QCOMPARE(list()->currentIndex(), 1);
    QCOMPARE(list()->mode(), Mode::Edit);
    QTRY_VERIFY(editor(1)->hasFocus());
}

void TestNotebookKeys::markdownRendersWhenRun()
{
    m_page->document()->cell(0)->setSource("# Title\n\nsome *text*");
    key(Qt::Key_M);
    key(Qt::Key_Return, Qt::ControlModifier);
    CellWidget* w = list()->cellWidget(0);
    QVERIFY(m_runner->calls.isEmpty()); // markdown never goes to the runner
    QVERIFY(w->isRendered());
    QVERIFY(w->rendered()->isVisible());
    QVERIFY(!w->editor()->isVisible());
    QCOMPARE(w->rendered()->document()->firstBlock().text(), QString("Title"));
    // Enter edits it again.
    key(Qt::Key_Return);
    QVERIFY(!w->isRendered());
    QVERIFY(w->editor()->isVisible());
    QTRY_VERIFY(w->editor()->hasFocus());
}

void TestNotebookKeys::autoIndentAndTab_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("source");
    QTest::newRow("after colon") << "for i in range(3):\nx"
                                 << "for i in range(3):\n    x";
    QTest::newRow("keeps indent") << "if a:\nb\nc"
                                  << "if a:\n    b\n    c";
    QTest::newRow("tab is spaces") << "\tx"
                                   << "    x";
    QTest::newRow("tab to next stop") << "ab \tc"
                                      << "ab  c"; // after a name Tab completes
    QTest::newRow("backspace a level") << "if a:\n\bb"
                                       << "if a:\nb";
    QTest::newRow("open bracket") << "f(\nx"
                                  << "f(\n    x";
}

void TestNotebookKeys::autoIndentAndTab()
{
    QFETCH(QString, typed);
    QFETCH(QString, source);
    key(Qt::Key_Return);
    QTRY_VERIFY(editor(0)->hasFocus());
    for (const QChar c : typed) {
        if (c == u'\n')
            key(Qt::Key_Return);
        else if (c == u'\t')
            key(Qt::Key_Tab);
        else if (c == u'\b')
            key(Qt::Key_Backspace);
        else
            QTest::keyClicks(editor(0), QString(c));
    }
    QCOMPARE(m_page->document()->cell(0)->source(), source);
}

void TestNotebookKeys::titleShowsDirty()
{
    QSignalSpy titles(m_page, &lizard::ui::DocumentPage::titleChanged);
    QVERIFY(!m_page->title().endsWith('*'));
    m_page->document()->cell(0)->setSource("x");
    QVERIFY(m_page->title().endsWith('*'));
    QVERIFY(titles.count() >= 1);
}

void TestNotebookKeys::kernelStateFollowsQueue()
{
    QCOMPARE(m_page->header()->kernelText(), QString("idle"));
    m_page->document()->cell(0)->setSource("wait");
    list()->runCurrent(CellEditor::RunMode::InPlace);
    QTRY_COMPARE(m_page->header()->kernelText(), QString("busy"));
    QTRY_VERIFY(
        m_runner->waiting); // the run started (the runner plays its script from the event loop)
    m_page->session()->interrupt();
    QTRY_COMPARE(m_page->header()->kernelText(), QString("idle"));
    QTRY_COMPARE(m_page->document()->cell(0)->status(), CellStatus::Interrupted);
    QCOMPARE(list()->cellWidget(0)->statusText(), QString("interrupted"));
}

void TestNotebookKeys::kernelStartingSaysSo()
{
    NotebookHeader* header = m_page->header();
    header->setKernelState("unknown");
    QCOMPARE(header->kernelLabelText(), QString("● kernel not started"));
    QVERIFY(!header->kernelProgressShown());
    header->setKernelState("starting");
    QCOMPARE(header->kernelLabelText(), QString("● starting Python…"));
    QVERIFY(header->kernelProgressShown());
    QVERIFY(header->findChild<QWidget*>("kernelProgress")->isVisible());
    header->setKernelState("idle");
    QCOMPARE(header->kernelLabelText(), QString("● kernel idle"));
    QVERIFY(!header->kernelProgressShown());
    header->setContext("bash (default context)", "bash"); // no kernel: a process per run
    header->setKernelState("unknown");
    QCOMPARE(header->kernelLabelText(), QString("● no kernel"));
    header->setContext("python (default context)", "python");
}

void TestNotebookKeys::aLongNoticeKeepsThePageItsWidth()
{
    NotebookHeader* header = m_page->header();
    const int minimum = m_page->minimumSizeHint().width();
    const QString notice =
        QStringLiteral("code runner: fast path unavailable, using exec-per-run for 30s: the code "
                       "runner's stream failed: Run command failed: network error: Failed to "
                       "connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server");
    header->setNotice(notice);
    QCoreApplication::processEvents();
    // The page asks for a few characters more room, not the notice's width, and keeps its own;
    // the notice ends in "…" within it, whole in its tooltip and in what the header reports.
    auto* label = header->findChild<lizard::ui::ElidingLabel*>();
    QVERIFY(label && label->isVisible());
    QVERIFY(label->sizeHint().width() > 600);
    QVERIFY2(m_page->minimumSizeHint().width() <= minimum + label->minimumSizeHint().width() + 10,
             qPrintable(QString::number(m_page->minimumSizeHint().width())));
    QCOMPARE(m_page->width(), 900);
    QVERIFY(label->isElided());
    QVERIFY(label->text().endsWith(QChar(0x2026)));
    QVERIFY(label->geometry().right() < header->width());
    QCOMPARE(label->toolTip(), notice);
    QCOMPARE(header->noticeText(), notice);
    header->setNotice(QStringLiteral("Restarted"));
    QCOMPARE(label->text(), QStringLiteral("Restarted"));
    QCOMPARE(label->toolTip(), QString());
    header->setNotice({});
    QVERIFY(!label->isVisible());
}

void TestNotebookKeys::theFindBarAndContentsAreMadeWhenFirstAskedFor()
{
    QVERIFY(!m_page->findChild<FindBar*>());
    QVERIFY(!m_page->findChild<TocPanel*>());
    // Ctrl+F: the bar, open under the toolbar and above the cells.
    key(Qt::Key_F, Qt::ControlModifier);
    auto* bar = m_page->findChild<FindBar*>();
    QVERIFY(bar && bar->isVisible());
    QVERIFY(bar->y() >= m_page->toolBar()->geometry().bottom());
    QVERIFY(bar->y() < m_page->cells()->mapTo(m_page, QPoint(0, 0)).y());
    QCOMPARE(m_page->navigator()->findBar(), bar); // made once
    QVERIFY(!m_page->findChild<TocPanel*>());
    // The contents' action: the panel, shown beside the cells, on their left.
    m_page->navigator()->tocAction()->trigger();
    auto* toc = m_page->findChild<TocPanel*>();
    QVERIFY(toc && toc->isVisible());
    QVERIFY(toc->width() > 0);
    QVERIFY(toc->mapTo(m_page, QPoint(0, 0)).x() <
            m_page->cells()->mapTo(m_page, QPoint(0, 0)).x());
    m_page->navigator()->tocAction()->trigger();
    QVERIFY(!toc->isVisible());
    QCOMPARE(m_page->navigator()->tocPanel(), toc);
}

void TestNotebookKeys::theVariableExplorerIsMadeWhenFirstShown()
{
    QVERIFY(!m_page->findChild<VariableExplorer*>());
    m_page->variablesAction()->trigger();
    auto* explorer = m_page->findChild<VariableExplorer*>();
    QVERIFY(explorer && explorer->isVisible());
    QVERIFY(explorer->width() > 0);
    QVERIFY(explorer->x() > m_page->cells()->x()); // beside the cells
    m_page->variablesAction()->trigger();
    QVERIFY(!explorer->isVisible());
    QCOMPARE(m_page->variableExplorer(), explorer); // made once
}

// A window like the app's while New notebook runs: a table with the focus, a Delete shortcut.
struct KeysWindowForTypeAhead
{
    QWidget window;
    QTableView* table = new QTableView;
    QLineEdit* search = new QLineEdit;
    QStandardItemModel model{3, 1};
    QAction* kill = new QAction("Kill", &window);
    KeysWindowForTypeAhead()
    {
        auto* layout = new QVBoxLayout(&window);
        layout->addWidget(search);
        layout->addWidget(table);
        const QStringList names = {"x0", "a1", "b2"}; // typing a or b would jump to a row
        for (int r = 0; r < 3; ++r)
            model.setItem(r, 0, new QStandardItem(names[r]));
        table->setModel(&model);
        table->setEditTriggers(QAbstractItemView::NoEditTriggers); // as the app's
        kill->setShortcut(QKeySequence::Delete);
        kill->setShortcutContext(Qt::WindowShortcut);
        window.addAction(kill);
        window.show();
        table->setFocus();
        table->setCurrentIndex(model.index(0, 0));
    }
};

void TestNotebookKeys::typeAheadLandsInTheFirstCell()
{
    KeysWindowForTypeAhead app;
    QApplication::setActiveWindow(&app.window);
    QVERIFY(QTest::qWaitForWindowActive(&app.window));
    QSignalSpy killed(app.kill, &QAction::triggered);
    auto* typeAhead = new TypeAhead(&app.window);
    // Typed at once: letters the table would search by (and a notebook in command mode would
    // take for A and B), Return, Backspace and Delete.
    QTest::keyClicks(QApplication::focusWidget(), "ab = 12");
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backspace);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Delete);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QTest::keyClicks(QApplication::focusWidget(), "ab");
    QCOMPARE(typeAhead->keptCount(), 12);
    QCOMPARE(killed.count(), 0);                  // Delete was kept, not a shortcut
    QCOMPARE(app.table->currentIndex().row(), 0); // no row jumped to
    QCOMPARE(QApplication::focusWidget(), app.table);
    // The notebook opens (the controller's way): edit mode in its first cell, then the keys.
    QApplication::setActiveWindow(m_page);
    QVERIFY(QTest::qWaitForWindowActive(m_page));
    list()->enterEditMode();
    QTRY_VERIFY(editor(0)->hasFocus());
    typeAhead->replayInto(editor(0));
    QVERIFY(!typeAhead->isKeeping());
    QCOMPARE(m_page->document()->cellCount(), 1); // no key taken as a command
    QCOMPARE(editor(0)->toPlainText(), QString("ab = 1\nab"));
    QCOMPARE(list()->mode(), Mode::Edit);
    // From now on the keys go where they point again.
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_X);
    QCOMPARE(editor(0)->toPlainText(), QString("ab = 1\nabx"));
    delete typeAhead;
}

void TestNotebookKeys::typeAheadEndsWithAClick()
{
    KeysWindowForTypeAhead app;
    QApplication::setActiveWindow(&app.window);
    QVERIFY(QTest::qWaitForWindowActive(&app.window));
    TypeAhead typeAhead(&app.window);
    QTest::keyClicks(QApplication::focusWidget(), "x");
    QCOMPARE(typeAhead.keptCount(), 1);
    // A click into the search box: the user has moved on, what follows is the search's.
    QTest::mouseClick(app.search, Qt::LeftButton);
    QVERIFY(!typeAhead.isKeeping());
    app.search->setFocus();
    QTest::keyClicks(app.search, "lyon");
    QCOMPARE(app.search->text(), QString("lyon"));
    QCOMPARE(typeAhead.keptCount(), 1);
    // A shortcut (Ctrl+…) also ends it, and reaches its action.
    TypeAhead second(&app.window);
    QTest::keyClick(app.search, Qt::Key_A, Qt::ControlModifier);
    QVERIFY(!second.isKeeping());
    QCOMPARE(second.keptCount(), 0);
}

QTEST_MAIN(TestNotebookKeys)
#include "tst_notebookkeys.moc"
