// The notebook UI against a real lizard-local and an `interpreter` sandbox: a matplotlib chart
// typed into a cell and run with Shift+Enter shows inline at its size; a user's walk-through
// (pandas, 6 beside Out [2], a table, ZeroDivisionError, a 5 s timeout that keeps variables).
#include "client/lizardapi.h"
#include "notebook/clientcoderunner.h"
#include "notebook/runqueue.h"
#include "notebook/tablemodel.h"
#include "support/apiwait.h"
#include "support/localserver.h"
#include "support/notebookwindow.h"
#include "support/wait.h"
#include "ui/documenttabs.h"
#include "ui/mainwindow.h"
#include "ui/notebook/cellcompleter.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/completionpopup.h"
#include "ui/notebook/contextselector.h"
#include "ui/notebook/helppanel.h"
#include "ui/notebook/imageoutputview.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookheader.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/richoutputview.h"
#include "ui/notebook/richtextview.h"
#include "ui/notebook/tableoutputview.h"
#include "ui/sandboxpanel.h"

#include <QAction>
#include <QApplication>
#include <QTemporaryDir>
#include <QTextFrame>
#include <QTextTable>
#include <QToolBar>
#include <QtTest>

using namespace lizard;
using namespace lizard::ui::notebook;
using lizard::notebook::CellStatus;
using lizard::notebook::NotebookKernel;

namespace {
constexpr int kLiveRunTimeoutMs = 180000; // the first run starts a kernel in a fresh sandbox
}

class TestNotebookLive : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void plotShowsInlineAtItsSize();
    void walkThrough();
    void forkNotebookBranches();
    void notebookFollowsReconnect();
    void completionAndHelpFromKernel();

private:
    // Types code into the current cell (edit mode) the way a user does, line by line.
    void type(NotebookPage* page, const QStringList& lines)
    {
        CellListWidget* list = page->cells();
        list->enterEditMode();
        CellEditor* editor = list->currentWidget()->editor();
        QTRY_VERIFY(editor->hasFocus());
        for (int i = 0; i < lines.size(); ++i) {
            if (i > 0) {
                QTest::keyClick(editor, Qt::Key_Return);
                // Auto-indent kept the indentation; the lines below carry their own.
                QTextCursor c = editor->textCursor();
                c.movePosition(QTextCursor::StartOfBlock, QTextCursor::KeepAnchor);
                c.removeSelectedText();
            }
            QTest::keyClicks(editor, lines[i]);
        }
    }
    CellWidget* runWithShiftEnter(NotebookPage* page)
    {
        CellListWidget* list = page->cells();
        CellWidget* cell = list->currentWidget();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return, Qt::ShiftModifier);
        const auto finished = [cell] {
            const CellStatus s = cell->cell()->status();
            return s == CellStatus::Done || s == CellStatus::Error || s == CellStatus::Interrupted;
        };
        (void)lizard::test::waitUntil(finished, kLiveRunTimeoutMs); // callers check the status
        return cell;
    }
    QString describe(CellWidget* cell)
    {
        QStringList parts;
        for (int i = 0; i < cell->outputs()->count(); ++i)
            parts << cell->outputs()->promptText(i) + " " +
                         cell->outputs()->view(i)->plainText().left(2000);
        return parts.join("\n---\n");
    }

    std::unique_ptr<client::LizardApi> m_apiAgain; // a second connection to the same server
    QString m_forkId;
    lizard::test::NotebookWindow m_nb;
};

void TestNotebookLive::initTestCase()
{
    const QString why = m_nb.start();
    QVERIFY2(why.isEmpty(), qPrintable(why));
    // The action is on the sandbox panel.
    bool onToolbar = false;
    for (QToolBar* bar : m_nb.window()->sandboxPanel()->findChildren<QToolBar*>())
        onToolbar = onToolbar || bar->actions().contains(m_nb.controller()->openNotebookAction());
    QVERIFY(onToolbar);
}

void TestNotebookLive::cleanupTestCase()
{
    m_nb.killOnStop(m_forkId);
    m_nb.stop();
}

void TestNotebookLive::plotShowsInlineAtItsSize()
{
    NotebookPage* page = m_nb.controller()->openNotebook(m_nb.sandboxId());
    QVERIFY(page);
    QCOMPARE(m_nb.window()->documentTabs()->currentDocument(), page);
    type(page, {"%config InlineBackend.print_figure_kwargs = {'bbox_inches': None}",
                "import matplotlib.pyplot as plt", "fig = plt.figure(figsize=(4, 3), dpi=100)",
                "plt.plot([1, 2, 3], [1, 4, 9])", "plt.show()"});
    CellWidget* cell = runWithShiftEnter(page);
    QVERIFY2(cell->cell()->status() == CellStatus::Done, qPrintable(describe(cell)));
    ImageOutputView* image = nullptr;
    for (int i = 0; i < cell->outputs()->count() && !image; ++i) {
        if (auto* rich = qobject_cast<RichOutputView*>(cell->outputs()->view(i)))
            image = rich->imageView();
    }
    QVERIFY2(image, qPrintable(describe(cell)));
    QCOMPARE(image->image().size(), QSize(400, 300));
    QTRY_COMPARE(image->shownSize(), QSize(400, 300)); // narrower than the cell: natural size
    QVERIFY(image->isVisible());
    QVERIFY(cell->isAncestorOf(image));
    // A new cell below, ready for typing.
    QCOMPARE(page->cells()->count(), 2);
    QCOMPARE(page->cells()->mode(), CellListWidget::Mode::Edit);
    QVERIFY(page->header()->kernelText() == "idle" || page->header()->kernelText() == "busy");
    // The sandbox table loads on its own schedule (projects, then their sandboxes).
    QTRY_VERIFY2_WITH_TIMEOUT(page->header()->timeLeftText().startsWith("ends in"),
                              qPrintable(page->header()->timeLeftText()), 10000);
}

void TestNotebookLive::walkThrough()
{
    NotebookPage* page = m_nb.controller()->openNotebook(m_nb.sandboxId());
    QVERIFY(page);
    // A fresh python context, from the toolbar's selector: execution counts start at 1.
    ContextSelector* selector = page->contextSelector();
    QVERIFY(selector);
    QSignalSpy changed(page->session()->kernel(), &NotebookKernel::contextChanged);
    selector->choose(selector->findData(QStringLiteral("new:python")));
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 60000);
    QVERIFY(page->session()->kernel()->context().id.startsWith("ctx-"));
    QTRY_VERIFY_WITH_TIMEOUT(
        selector->currentText().contains(page->session()->kernel()->context().id), 30000);

    type(page, {"import pandas as pd; df = pd.DataFrame({\"x\": [1, 2, 3]})"});
    CellWidget* first = runWithShiftEnter(page);
    QVERIFY2(first->cell()->status() == CellStatus::Done, qPrintable(describe(first)));

    type(page, {"df.x.sum()"});
    CellWidget* sum = runWithShiftEnter(page);
    QVERIFY2(sum->outputs()->count() == 1, qPrintable(describe(sum)));
    QCOMPARE(sum->outputs()->promptText(0), QString("Out [2]:"));
    QCOMPARE(sum->outputs()->view(0)->plainText(), QString("6"));

    type(page, {"df"});
    CellWidget* table = runWithShiftEnter(page);
    // A DataFrame shows as data (the table view); pandas' HTML stays in the output for the .ipynb.
    auto* frame = qobject_cast<TableOutputView*>(table->outputs()->view(0));
    QVERIFY2(frame, qPrintable(describe(table)));
    QCOMPARE(frame->shapeText(), QString("3 rows × 1 column"));
    QCOMPARE(frame->model()->data(frame->model()->index(2, 1)).toString(), QString("3"));
    QVERIFY(
        std::get<lizard::notebook::RichOutput>(table->cell()->outputs().at(0)).has("text/html"));

    // A display with an id, advanced from the next cell (what progress bars do).
    type(page, {"h = display('step 1 of 2', display_id=True)"});
    CellWidget* progress = runWithShiftEnter(page);
    QVERIFY2(progress->outputs()->count() == 1, qPrintable(describe(progress)));
    QCOMPARE(progress->outputs()->view(0)->plainText(), QString("'step 1 of 2'"));
    type(page, {"h.update('step 2 of 2')"});
    CellWidget* advance = runWithShiftEnter(page);
    QCOMPARE(advance->cell()->status(), CellStatus::Done);
    QCOMPARE(advance->outputs()->count(), 0);
    QCOMPARE(progress->outputs()->view(0)->plainText(), QString("'step 2 of 2'"));

    type(page, {"1/0"});
    CellWidget* error = runWithShiftEnter(page);
    QCOMPARE(error->cell()->status(), CellStatus::Error);
    QVERIFY2(error->outputs()->view(0)->plainText().contains("ZeroDivisionError"),
             qPrintable(describe(error)));

    auto* runner = qobject_cast<lizard::notebook::ClientCodeRunner*>(page->session()->runner());
    QVERIFY(runner);
    runner->setTimeout(5);
    type(page, {"while True: pass"});
    QElapsedTimer clock;
    clock.start();
    CellWidget* loop = runWithShiftEnter(page);
    QCOMPARE(loop->cell()->status(), CellStatus::Error);
    QVERIFY2(describe(loop).contains("TimeoutError"), qPrintable(describe(loop)));
    QVERIFY(clock.elapsed() < 60000);
    runner->setTimeout(60);

    type(page, {"df.x.sum() * 2"});
    CellWidget* kept = runWithShiftEnter(page);
    QVERIFY2(kept->outputs()->count() == 1, qPrintable(describe(kept)));
    QCOMPARE(kept->outputs()->view(0)->plainText(), QString("12")); // df survived the timeout
}

// x = 41, Fork notebook, x + 1 is 42 in the branch; x changed in the branch leaves the
// original at 41.
void TestNotebookLive::forkNotebookBranches()
{
    NotebookPage* original = m_nb.controller()->openNotebook(m_nb.sandboxId());
    QVERIFY(original);
    type(original, {"x = 41"});
    CellWidget* set = runWithShiftEnter(original);
    QVERIFY2(set->cell()->status() == CellStatus::Done, qPrintable(describe(set)));

    QAction* fork = original->toolBar()->findChild<QAction*>(QStringLiteral("forkNotebook"));
    if (fork == nullptr) {
        for (QAction* a : original->toolBar()->actions())
            fork = a->objectName() == "forkNotebook" ? a : fork;
    }
    QVERIFY(fork);
    QPointer<NotebookPage> branch;
    QString failure;
    connect(m_nb.controller(), &NotebookController::notebookForked, this,
            [&branch](NotebookPage*, NotebookPage* page) { branch = page; });
    connect(m_nb.controller(), &NotebookController::forkFailed, this,
            [&failure](const QString& m) { failure = m; });
    fork->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(branch || !failure.isEmpty(), 120000);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY(branch);
    m_forkId = branch->sandboxId();
    QVERIFY(m_forkId != m_nb.sandboxId());
    QCOMPARE(m_nb.window()->documentTabs()->currentDocument(), branch);
    QVERIFY2(branch->title().contains("branch of"), qPrintable(branch->title()));
    QCOMPARE(branch->document()->cellCount(), original->document()->cellCount());

    branch->cells()->setCurrentIndex(branch->cells()->count() - 1);
    type(branch, {"x + 1"});
    CellWidget* plusOne = runWithShiftEnter(branch);
    QVERIFY2(plusOne->cell()->status() == CellStatus::Done, qPrintable(describe(plusOne)));
    QCOMPARE(plusOne->outputs()->view(plusOne->outputs()->count() - 1)->plainText(), QString("42"));

    type(branch, {"x = 1000"});
    QCOMPARE(runWithShiftEnter(branch)->cell()->status(), CellStatus::Done);

    m_nb.window()->documentTabs()->showDocument(original);
    type(original, {"x"});
    CellWidget* still = runWithShiftEnter(original);
    QVERIFY2(still->cell()->status() == CellStatus::Done, qPrintable(describe(still)));
    QCOMPARE(still->outputs()->view(still->outputs()->count() - 1)->plainText(), QString("41"));
    branch->document()->setClean();
}

// A reconnect (the app makes a new LizardApi, e.g. after lizard-local restarted): the open
// notebook says it lost the connection, refuses runs meanwhile, then runs again on the same
// context with its variables.
void TestNotebookLive::notebookFollowsReconnect()
{
    NotebookPage* page = m_nb.controller()->openNotebook(m_nb.sandboxId());
    QVERIFY(page);
    type(page, {"survivor = 7"});
    QCOMPARE(runWithShiftEnter(page)->cell()->status(), CellStatus::Done);

    // A cell still running when the connection goes ends with an error, not "running" for ever.
    type(page, {"import time; time.sleep(20)"});
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return, Qt::ShiftModifier);
    CellWidget* cut = page->cells()->cellWidget(page->cells()->currentIndex() - 1);
    QTRY_COMPARE_WITH_TIMEOUT(cut->cell()->status(), CellStatus::Running, 30000);
    m_nb.window()->clearBackend("Connecting…");
    QTRY_COMPARE_WITH_TIMEOUT(cut->cell()->status(), CellStatus::Error, 5000);
    QVERIFY2(describe(cut).contains("connection to the sandbox was lost"),
             qPrintable(describe(cut)));
    QVERIFY(page->header()->noticeText().contains("Disconnected"));
    type(page, {"survivor"});
    CellWidget* refused = runWithShiftEnter(page);
    QCOMPARE(refused->cell()->status(), CellStatus::Error);
    QVERIFY2(describe(refused).contains("connection"), qPrintable(describe(refused)));

    m_apiAgain = std::make_unique<client::LizardApi>(
        client::Endpoint{m_nb.server().url(), m_nb.server().apiKey()});
    m_nb.window()->setBackend(m_apiAgain.get(), "Local again", {});
    QVERIFY(page->header()->noticeText().contains("Connected again"));
    type(page, {"survivor * 6"});
    CellWidget* again = runWithShiftEnter(page);
    QVERIFY2(again->cell()->status() == CellStatus::Done, qPrintable(describe(again)));
    QCOMPARE(again->outputs()->view(again->outputs()->count() - 1)->plainText(), QString("42"));
    page->document()->setClean();
}

void TestNotebookLive::completionAndHelpFromKernel()
{
    NotebookPage* page = m_nb.controller()->openNotebook(m_nb.sandboxId());
    QVERIFY(page);
    type(page, {"import numpy as np"});
    CellWidget* imported = runWithShiftEnter(page);
    QVERIFY2(imported->cell()->status() == CellStatus::Done, qPrintable(describe(imported)));

    // Tab after np.lins asks the kernel, which knows np from the cell above.
    type(page, {"np.lins"});
    CellWidget* cell = page->cells()->currentWidget();
    auto* completer = cell->findChild<CellCompleter*>();
    QVERIFY(completer);
    QTest::keyClick(cell->editor(), Qt::Key_Tab);
    QTRY_VERIFY_WITH_TIMEOUT(completer->isPopupVisible(), 30000);
    QVERIFY2(completer->popup()->visibleMatches().contains("linspace"),
             qPrintable(completer->popup()->visibleMatches().join(", ")));
    QCOMPARE(completer->popup()->kindOf("linspace"), QString("function"));
    QTest::keyClick(cell->editor(), Qt::Key_Return);
    QCOMPARE(cell->cell()->source(), QString("np.linspace"));

    // Shift+Tab after the name: its signature and docstring.
    QSignalSpy help(completer, &CellCompleter::helpShown);
    QTest::keyClick(cell->editor(), Qt::Key_Backtab);
    QVERIFY(help.wait(30000));
    QVERIFY2(completer->helpText().contains("linspace(") &&
                 completer->helpText().contains("evenly spaced"),
             qPrintable(completer->helpText()));

    // Notebook > Show contextual help: the panel asks the kernel about the name under the cursor
    // and follows the cursor to the next name.
    auto* showHelp = m_nb.window()->findChild<QAction*>(QStringLiteral("menuContextualHelp"));
    QVERIFY(showHelp);
    showHelp->trigger();
    HelpPanel* panel = page->helpPanel();
    QTRY_VERIFY(panel->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(panel->helpText().contains("evenly spaced"), 30000);
    QTest::keyClick(cell->editor(), Qt::Key_Return);
    QTest::keyClicks(cell->editor(), "np.zeros");
    QTRY_VERIFY_WITH_TIMEOUT(panel->helpText().contains("zeros(") &&
                                 panel->helpText().contains("filled with zeros"),
                             30000);
    showHelp->trigger();
    QTRY_VERIFY(!panel->isVisible());
    page->document()->setClean();
}

QTEST_MAIN(TestNotebookLive)
#include "tst_notebooklive.moc"
