// The notebook's variable explorer against a real lizard-local and an `interpreter` sandbox's
// kernel: Ctrl+Shift+V shows it; after each run it lists the user's variables (x = 41: int, 41;
// x = "hello": str), never modules, underscore names or IPython's own; its refresh does not move
// the execution count; sorting, the filter and a double-click's full repr; a double-click on a
// 100,000-row DataFrame (or a Series) opens it in the native table viewer, paged and sorted in
// the kernel; a fork's branch lists what came along once its kernel started.
#include "notebook/tablemodel.h"
#include "support/apiwait.h"
#include "support/localserver.h"
#include "support/notebookwindow.h"
#include "support/screenshot.h"
#include "ui/documenttabs.h"
#include "ui/mainwindow.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/datatableview.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/tableviewerdialog.h"
#include "ui/notebook/variableexplorer.h"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace lizard;
using namespace lizard::ui::notebook;
using lizard::notebook::CellStatus;

class TestVariableExplorer : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void listsTheUsersVariablesAfterEachRun();
    void sortFilterAndFullValue();
    void dataFrameOpensInViewer();
    void forkBranchListsWhatCameAlong();

private:
    static QStringList names(VariableExplorer* explorer)
    {
        QStringList out;
        for (int i = 0; i < explorer->rowCount(); ++i)
            out << explorer->text(i, VariableExplorer::Name);
        return out;
    }
    static int rowOf(VariableExplorer* explorer, const QString& name)
    {
        return int(names(explorer).indexOf(name));
    }
    static void doubleClick(VariableExplorer* explorer, const QString& name)
    {
        const QModelIndex index =
            explorer->view()->model()->index(rowOf(explorer, name), VariableExplorer::Name);
        explorer->view()->scrollTo(index);
        const QPoint at = explorer->view()->visualRect(index).center();
        QTest::mouseClick(explorer->view()->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(explorer->view()->viewport(), Qt::LeftButton, {}, at);
    }
    NotebookPage* newPage(const QString& sandboxId)
    {
        NotebookPage* page = m_nb.controller()->openNotebook(sandboxId);
        if (page) {
            page->cells()->enterEditMode();
            QTest::keyClick(page->cells()->currentWidget()->editor(), Qt::Key_V,
                            Qt::ControlModifier | Qt::ShiftModifier);
        }
        return page;
    }

    QString m_forkId;
    lizard::test::NotebookWindow m_nb;
};

void TestVariableExplorer::initTestCase()
{
    lizard::test::NotebookWindow::Options options;
    options.size = QSize(1400, 800);
    const QString why = m_nb.start(options);
    QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TestVariableExplorer::cleanupTestCase()
{
    m_nb.killOnStop(m_forkId);
    m_nb.stop();
}

// A case that failed with a table viewer open leaves it to nobody: the next case's keys must go
// to the notebook again.
void TestVariableExplorer::cleanup()
{
    for (QWidget* w : QApplication::topLevelWidgets()) {
        if (qobject_cast<TableViewerDialog*>(w))
            w->close();
    }
    QApplication::setActiveWindow(m_nb.window());
}

void TestVariableExplorer::listsTheUsersVariablesAfterEachRun()
{
    NotebookPage* page = newPage(m_nb.sandboxId());
    QVERIFY(page);
    VariableExplorer* explorer = page->variableExplorer();
    QTRY_VERIFY(explorer->isVisible()); // Ctrl+Shift+V
    QVERIFY(page->variablesAction()->isChecked());
    // Nothing ran yet: no kernel, and asking did not start one.
    QTRY_COMPARE_WITH_TIMEOUT(explorer->statusText(),
                              QString("Kernel not running: run a cell to start it."), 30000);
    QCOMPARE(explorer->rowCount(), 0);

    m_nb.type(page, "import os\nfrom math import sqrt\n_private = 1\nx = 41");
    CellWidget* first = m_nb.run(page);
    QCOMPARE(first->cell()->status(), CellStatus::Done);
    QTRY_COMPARE_WITH_TIMEOUT(names(explorer), QStringList{"x"}, 30000);
    QCOMPARE(explorer->text(0, VariableExplorer::Type), QString("int"));
    QCOMPARE(explorer->text(0, VariableExplorer::Value), QString("41"));
    QCOMPARE(explorer->text(0, VariableExplorer::Size), QString("28 bytes"));
    QCOMPARE(explorer->statusText(), QString("1 variable"));
    QCOMPARE(first->cell()->executionCount(), std::optional<int>(1));

    const int before = explorer->requestCount();
    m_nb.type(page, "x = \"hello\"");
    CellWidget* second = m_nb.run(page);
    QCOMPARE(second->cell()->status(), CellStatus::Done);
    QTRY_COMPARE_WITH_TIMEOUT(explorer->text(0, VariableExplorer::Type), QString("str"), 30000);
    QCOMPARE(explorer->text(0, VariableExplorer::Value), QString("'hello'"));
    QCOMPARE(explorer->text(0, VariableExplorer::Shape), QString("len 5"));
    QCOMPARE(names(explorer),
             QStringList{"x"}); // no os, sqrt, _private, In, Out, exit, get_ipython
    QTest::qWait(300);
    QCOMPARE(explorer->requestCount(), before + 1); // one listing per run

    // The listings were silent: the next run's count is what the user's runs made it.
    m_nb.type(page, "x");
    CellWidget* third = m_nb.run(page);
    QCOMPARE(third->cell()->status(), CellStatus::Done);
    QCOMPARE(third->cell()->executionCount(), std::optional<int>(3));

    // Notebook > Show variables mirrors the page's action.
    auto* menuItem = m_nb.window()->findChild<QAction*>(QStringLiteral("menuVariables"));
    QVERIFY(menuItem);
    auto* menu = qobject_cast<QMenu*>(menuItem->parent());
    QVERIFY(menu);
    emit menu->aboutToShow(); // as when the user opens the menu: the item shows the page's state
    QVERIFY(menuItem->isChecked());
    menuItem->trigger();
    QTRY_VERIFY(!explorer->isVisible());
    page->document()->setClean();
}

void TestVariableExplorer::sortFilterAndFullValue()
{
    NotebookPage* page = newPage(m_nb.sandboxId()); // the same default context: x is there
    QVERIFY(page);
    VariableExplorer* explorer = page->variableExplorer();
    QTRY_VERIFY(explorer->isVisible());
    m_nb.type(
        page,
        "import numpy as np\n"
        "import pandas as pd\n"
        "temps = [21.5, 22.1, 19.8, 23.4, 24.0]\n"
        "city = {'name': 'Lisbon', 'days': 5, 'unit': 'C'}\n"
        "grid = np.linspace(0, 1, 12).reshape(3, 4)\n"
        "weather = pd.DataFrame({'day': ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], 'temp': temps})\n"
        "def to_fahrenheit(c):\n"
        "    return c * 9 / 5 + 32\n"
        "x = 41");
    QCOMPARE(m_nb.run(page)->cell()->status(), CellStatus::Done);
    QTRY_COMPARE_WITH_TIMEOUT(
        names(explorer), (QStringList{"city", "grid", "temps", "to_fahrenheit", "weather", "x"}),
        30000);
    const int grid = rowOf(explorer, "grid");
    QCOMPARE(explorer->text(grid, VariableExplorer::Type), QString("numpy.ndarray"));
    QCOMPARE(explorer->text(grid, VariableExplorer::Shape), QString("3 × 4"));
    QCOMPARE(explorer->text(grid, VariableExplorer::Size), QString("96 bytes"));
    const int weather = rowOf(explorer, "weather");
    QCOMPARE(explorer->text(weather, VariableExplorer::Type), QString("pandas.DataFrame"));
    QCOMPARE(explorer->text(weather, VariableExplorer::Shape), QString("5 × 2"));
    QCOMPARE(explorer->text(weather, VariableExplorer::Value), QString("columns: day, temp"));
    QCOMPARE(explorer->text(rowOf(explorer, "temps"), VariableExplorer::Value),
             QString("[21.5, 22.1, 19.8, 23.4, 24.0]"));

    // Sorted by size, largest first; then by name again.
    explorer->view()->sortByColumn(VariableExplorer::Size, Qt::DescendingOrder);
    QCOMPARE(explorer->text(explorer->rowCount() - 1, VariableExplorer::Name), QString("x"));
    explorer->view()->sortByColumn(VariableExplorer::Name, Qt::AscendingOrder);

    // The filter matches names and types.
    QTest::keyClicks(explorer->filterEdit(), "numpy");
    QCOMPARE(names(explorer), QStringList{"grid"});
    explorer->filterEdit()->clear();
    QCOMPARE(explorer->rowCount(), 6);

    // A double-click shows all of the value, as help shows a docstring (a DataFrame opens in
    // the table viewer instead: dataFrameOpensInViewer).
    QSignalSpy opened(explorer, &VariableExplorer::openVariable);
    doubleClick(explorer, "city");
    QTRY_COMPARE(opened.size(), 1);
    QTRY_VERIFY2_WITH_TIMEOUT(explorer->detailText().contains("Lisbon"),
                              qPrintable(explorer->detailText()), 30000);
    QVERIFY2(explorer->detailText().startsWith("city: dict, len 3"),
             qPrintable(explorer->detailText()));
    QCOMPARE(opened.size(), 1);
    QCOMPARE(opened.first().at(0).toString(), QString("city"));
    QCOMPARE(opened.first().at(1).toString(), QString("dict"));

    m_nb.window()->resize(1400, 760);
    page->cells()->setCurrentIndex(0);
    QTest::qWait(200);
    lizard::test::saveScreenshot(m_nb.window(), "variable-explorer");
    page->document()->setClean();
}

void TestVariableExplorer::dataFrameOpensInViewer()
{
    NotebookPage* page = newPage(m_nb.sandboxId());
    QVERIFY(page);
    VariableExplorer* explorer = page->variableExplorer();
    QTRY_VERIFY(explorer->isVisible());
    m_nb.type(page, "import numpy as np\n"
                    "import pandas as pd\n"
                    "big = pd.DataFrame({'a': np.arange(100_000), 'half': np.arange(100_000) / 2,\n"
                    "    'city': np.where(np.arange(100_000) % 3 == 0, 'Lyon', 'Oslo')})\n"
                    "halves = big.half");
    CellWidget* cell = m_nb.run(page);
    QCOMPARE(cell->cell()->status(), CellStatus::Done);
    QVERIFY(cell->outputs()->count() == 0); // nothing displayed: the frame is only a variable
    QTRY_VERIFY_WITH_TIMEOUT(names(explorer).contains("big"), 30000);
    QCOMPARE(explorer->text(rowOf(explorer, "big"), VariableExplorer::Type),
             QString("pandas.DataFrame"));
    const std::optional<int> count = cell->cell()->executionCount();

    // A double-click opens the frame in the table viewer, with its shape in the footer.
    QSignalSpy viewers(explorer, &VariableExplorer::viewerOpened);
    doubleClick(explorer, "big");
    QTRY_COMPARE_WITH_TIMEOUT(viewers.size(), 1, 60000);
    QPointer<TableViewerDialog> viewer = viewers.first().at(0).value<TableViewerDialog*>();
    QVERIFY(viewer);
    QTRY_VERIFY(viewer->isVisible());
    QCOMPARE(viewer->name(), QString("big"));
    auto* shape = viewer->findChild<QLabel*>(QStringLiteral("tableShape"));
    QVERIFY(shape && shape->isVisible());
    QCOMPARE(shape->text(), QString("100,000 rows × 3 columns"));
    QVERIFY2(viewer->windowTitle().startsWith("big"), qPrintable(viewer->windowTitle()));
    QVERIFY2(explorer->detailText().isEmpty(), qPrintable(explorer->detailText()));
    DataTableView* table = viewer->table();
    lizard::notebook::TableModel* model = viewer->model();
    QCOMPARE(model->rowCount(), 100000);
    QCOMPARE(model->headerData(2, Qt::Horizontal).toString(), QString("half"));
    QCOMPARE(model->data(model->index(3, 2)).toString(), QString("1.5"));
    QCOMPARE(model->data(model->index(0, 3)).toString(), QString("Lyon"));
    QVERIFY(!model->isLoaded(99999)); // only the first rows came with it
    QTRY_VERIFY_WITH_TIMEOUT(!viewer->statusText().contains("loading"), 60000);
    QVERIFY(!viewer->grab().isNull());

    // To the end: the last rows arrive page by page, never all of them. The keys go to the table
    // once the viewer is the active window and the table has focus, as for a user; before that
    // (a busy machine may take a while to activate a new window) the table has no current cell
    // and Ctrl+End, as in any QTableView, only selects the first one.
    QVERIFY(QTest::qWaitForWindowActive(viewer, 30000));
    table->setFocus();
    QTRY_VERIFY(table->hasFocus());
    QTest::keyClick(table, Qt::Key_End, Qt::ControlModifier);
    QCOMPARE(table->verticalScrollBar()->value(), table->verticalScrollBar()->maximum());
    QTRY_COMPARE_WITH_TIMEOUT(model->data(model->index(99999, 1)).toString(), QString("99999"),
                              60000);
    QCOMPARE(model->data(model->index(99999, 2)).toString(), QString("49999.5"));
    QCOMPARE(model->data(model->index(99999, 0)).toString(), QString("99999")); // the index
    QVERIFY(!model->isLoaded(50000));
    QVERIFY(model->cachedBlocks() <= 3);

    // A header click sorts in the kernel (twice: descending); the footer says so.
    table->sortBySection(2);
    table->sortBySection(2);
    QCOMPARE(model->sortOrder(), Qt::DescendingOrder);
    QTRY_COMPARE_WITH_TIMEOUT(model->data(model->index(0, 2)).toString(), QString("49999.5"),
                              60000);
    QTRY_VERIFY2_WITH_TIMEOUT(viewer->statusText().contains("sorted by half, descending"),
                              qPrintable(viewer->statusText()), 60000);
    QCOMPARE(table->horizontalHeader()->sortIndicatorSection(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(!viewer->statusText().contains("loading"), 60000);
    lizard::test::saveScreenshot(viewer->grab(), "variable-table-viewer");

    // A Series opens the same way, through the row's context menu.
    auto* openAction = explorer->view()->findChild<QAction*>(QStringLiteral("openVariable"));
    QVERIFY(openAction);
    explorer->view()->setCurrentIndex(
        explorer->view()->model()->index(rowOf(explorer, "halves"), VariableExplorer::Name));
    openAction->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(viewers.size(), 2, 60000);
    auto* series = viewers.last().at(0).value<TableViewerDialog*>();
    QCOMPARE(series->shapeText(), QString("100,000 rows"));
    QCOMPARE(series->model()->data(series->model()->index(1, 1)).toString(), QString("0.5"));
    series->close();
    viewer->close();
    QTRY_VERIFY(!viewer); // closing deletes it

    // Opening asked the kernel silently: the next run's count follows the user's runs.
    QApplication::setActiveWindow(m_nb.window());
    QVERIFY(QTest::qWaitForWindowActive(m_nb.window()));
    m_nb.type(page, "1 + 1");
    CellWidget* next = m_nb.run(page);
    QCOMPARE(next->cell()->status(), CellStatus::Done);
    QCOMPARE(next->cell()->executionCount(), std::optional<int>(*count + 1));
    page->document()->setClean();
}

void TestVariableExplorer::forkBranchListsWhatCameAlong()
{
    NotebookPage* original = newPage(m_nb.sandboxId());
    QVERIFY(original);
    m_nb.type(original, "kept = 41");
    QCOMPARE(m_nb.run(original)->cell()->status(), CellStatus::Done);
    QTRY_VERIFY_WITH_TIMEOUT(names(original->variableExplorer()).contains("kept"), 30000);

    QPointer<NotebookPage> branch;
    QString failure;
    connect(m_nb.controller(), &NotebookController::notebookForked, this,
            [&branch](NotebookPage*, NotebookPage* page) { branch = page; });
    connect(m_nb.controller(), &NotebookController::forkFailed, this,
            [&failure](const QString& m) { failure = m; });
    m_nb.controller()->forkNotebook(original);
    QTRY_VERIFY_WITH_TIMEOUT(branch || !failure.isEmpty(), 120000);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    m_forkId = branch->sandboxId();
    branch->variablesAction()->setChecked(true);
    VariableExplorer* explorer = branch->variableExplorer();
    QTRY_VERIFY(explorer->isVisible());
    // The fork's kernel starts with its first run, and loads the saved variables then.
    QTRY_COMPARE_WITH_TIMEOUT(
        explorer->statusText(),
        QString("Kernel not running: the variables saved at the fork load with the "
                "first run."),
        30000);
    branch->cells()->setCurrentIndex(branch->cells()->count() - 1);
    m_nb.type(branch, "added = kept + 1");
    CellWidget* cell = m_nb.run(branch);
    QCOMPARE(cell->cell()->status(), CellStatus::Done);
    QTRY_VERIFY_WITH_TIMEOUT(names(explorer).contains("added"), 30000);
    QVERIFY2(names(explorer).contains("kept"), qPrintable(names(explorer).join(", ")));
    QCOMPARE(explorer->text(rowOf(explorer, "kept"), VariableExplorer::Value), QString("41"));
    QCOMPARE(explorer->text(rowOf(explorer, "added"), VariableExplorer::Value), QString("42"));
    branch->document()->setClean();
    original->document()->setClean();
}

QTEST_MAIN(TestVariableExplorer)
#include "tst_variableexplorer.moc"
