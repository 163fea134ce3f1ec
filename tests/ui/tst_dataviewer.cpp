// DataFrames as data, against a real lizard-local and a real kernel in an `interpreter` sandbox:
// a 1,000,000-row DataFrame shows in the native table view with its shape, sorts descending in
// the kernel by a header click (the first row is then the max), scrolls to its end (the last rows
// arrive page by page), copies a selection as TSV with Ctrl+C, opens in the larger viewer; paging
// moves no execution count; after a kernel restart the view keeps its rows and says more are not
// available. Saves the guide's picture `data-viewer`.
#include "notebook/notebookkernel.h"
#include "notebook/tablemodel.h"
#include "support/apiwait.h"
#include "support/localserver.h"
#include "support/notebookwindow.h"
#include "support/screenshot.h"
#include "support/wait.h"
#include "ui/documenttabs.h"
#include "ui/mainwindow.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/datatableview.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/tableoutputview.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace lizard;
using namespace lizard::ui::notebook;
using lizard::notebook::CellStatus;
using lizard::notebook::NotebookKernel;

namespace {
constexpr int kViewerRunTimeoutMs = 180000; // the first run starts a kernel in a fresh sandbox
constexpr int kRowsTimeoutMs = 60000;
} // namespace

class TestDataViewer : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void millionRowFrame();

private:
    CellWidget* run(NotebookPage* page, const QString& code)
    {
        CellListWidget* list = page->cells();
        list->enterEditMode();
        CellWidget* cell = list->currentWidget();
        const QStringList lines = code.split('\n');
        for (int i = 0; i < lines.size(); ++i) {
            if (i > 0) {
                QTest::keyClick(cell->editor(), Qt::Key_Return);
                // Auto-indent kept the indentation; the lines carry their own.
                QTextCursor c = cell->editor()->textCursor();
                c.movePosition(QTextCursor::StartOfBlock, QTextCursor::KeepAnchor);
                c.removeSelectedText();
            }
            QTest::keyClicks(cell->editor(), lines[i]);
        }
        QTest::keyClick(cell->editor(), Qt::Key_Return, Qt::ShiftModifier);
        (void)lizard::test::waitUntil(
            [cell] {
                const CellStatus s = cell->cell()->status();
                return s == CellStatus::Done || s == CellStatus::Error ||
                       s == CellStatus::Interrupted;
            },
            kViewerRunTimeoutMs);
        return cell;
    }
    static QString describe(CellWidget* cell)
    {
        QStringList parts;
        for (int i = 0; i < cell->outputs()->count(); ++i)
            parts << cell->outputs()->promptText(i) + " " +
                         cell->outputs()->view(i)->plainText().left(2000);
        return parts.join("\n---\n");
    }
    static void clickHeader(DataTableView* table, int section)
    {
        QHeaderView* header = table->horizontalHeader();
        const QPoint at(header->sectionViewportPosition(section) + header->sectionSize(section) / 2,
                        header->height() / 2);
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
    }
    static QPoint cellCenter(DataTableView* table, int row, int column)
    {
        return table->visualRect(table->model()->index(row, column)).center();
    }

    lizard::test::NotebookWindow m_nb;
};

void TestDataViewer::initTestCase()
{
    lizard::test::NotebookWindow::Options options;
    options.size = QSize(1100, 760);
    const QString why = m_nb.start(options);
    QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TestDataViewer::cleanupTestCase()
{
    m_nb.stop();
}

void TestDataViewer::millionRowFrame()
{
    NotebookPage* page = m_nb.controller()->openNotebook(m_nb.sandboxId());
    QVERIFY(page);
    CellWidget* cell =
        run(page, "import pandas as pd, numpy as np\n"
                  "n = 1_000_000\n"
                  "df = pd.DataFrame({'a': np.arange(n), 'price': np.arange(n) * 0.25,\n"
                  "    'city': np.where(np.arange(n) % 3 == 0, 'Lyon', 'Oslo'),\n"
                  "    'ok': np.arange(n) % 7 == 0,\n"
                  "    'when': pd.date_range('2024-01-01', periods=n, freq='min')})\n"
                  "df");
    QVERIFY2(cell->cell()->status() == CellStatus::Done, qPrintable(describe(cell)));
    const std::optional<int> count = cell->cell()->executionCount();
    QVERIFY(count);
    QCOMPARE(cell->outputs()->count(), 1);
    auto* view = qobject_cast<TableOutputView*>(cell->outputs()->view(0));
    QVERIFY2(view, qPrintable(describe(cell)));
    QCOMPARE(cell->outputs()->promptText(0), QString("Out [%1]:").arg(*count));
    QCOMPARE(view->shapeText(), QString("1,000,000 rows × 5 columns"));
    DataTableView* table = view->table();
    lizard::notebook::TableModel* model = view->model();
    QVERIFY(table->isVisible());
    QCOMPARE(model->rowCount(), 1000000);
    QCOMPARE(model->headerData(1, Qt::Horizontal).toString(), QString("a"));
    QCOMPARE(model->data(model->index(0, 1)).toString(), QString("0"));
    QCOMPARE(model->data(model->index(1, 2)).toString(), QString("0.25"));
    QCOMPARE(model->data(model->index(0, 3)).toString(), QString("Lyon"));
    QVERIFY(model->data(model->index(0, 1), Qt::TextAlignmentRole).value<Qt::Alignment>() &
            Qt::AlignRight);
    QVERIFY(model->data(model->index(0, 3), Qt::TextAlignmentRole).value<Qt::Alignment>() &
            Qt::AlignLeft);
    // The notebook keeps pandas' HTML and text too (the .ipynb gets those).
    const auto& rich = std::get<lizard::notebook::RichOutput>(cell->cell()->outputs().at(0));
    QVERIFY(rich.has("text/html") && rich.has("text/plain"));

    // Sort descending by a: two clicks on its header; pandas sorts in the kernel.
    clickHeader(table, 1);
    QTRY_COMPARE_WITH_TIMEOUT(model->data(model->index(0, 1)).toString(), QString("0"),
                              kRowsTimeoutMs);
    clickHeader(table, 1);
    QCOMPARE(model->sortOrder(), Qt::DescendingOrder);
    QTRY_COMPARE_WITH_TIMEOUT(model->data(model->index(0, 1)).toString(), QString("999999"),
                              kRowsTimeoutMs);
    QCOMPARE(model->data(model->index(0, 0)).toString(), QString("999999")); // the index came along
    QCOMPARE(table->horizontalHeader()->sortIndicatorSection(), 1);
    QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    QVERIFY2(view->statusText().contains("sorted by a"), qPrintable(view->statusText()));
    page->cells()->ensureWidgetVisible(view);
    QTRY_VERIFY(!view->statusText().contains("loading"));
    lizard::test::saveScreenshot(m_nb.window(), "data-viewer");

    // To the end: the last rows arrive (the frame's first, in this order).
    // (Once the table has focus: before that it has no current cell, and Ctrl+End in any
    // QTableView only selects the first one.)
    table->setFocus();
    QTRY_VERIFY(table->hasFocus());
    QTest::keyClick(table, Qt::Key_End, Qt::ControlModifier);
    QCOMPARE(table->verticalScrollBar()->value(), table->verticalScrollBar()->maximum());
    QTRY_COMPARE_WITH_TIMEOUT(model->data(model->index(999999, 1)).toString(), QString("0"),
                              kRowsTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(model->data(model->index(999990, 2)).toString(), QString("2.25"),
                              kRowsTimeoutMs);
    QVERIFY(model->cachedBlocks() <= lizard::notebook::TableModel::kMaxBlocks);

    // Select two rows' a and price with the mouse, Ctrl+C: tab-separated lines.
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellCenter(table, 999998, 1));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::ShiftModifier,
                      cellCenter(table, 999999, 2));
    QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text(), QString("1\t0.25\n0\t0.0\n"));
    QVERIFY2(view->statusText().contains("Copied 2 rows"), qPrintable(view->statusText()));

    // Back to the top, then the larger viewer on the same rows.
    QTest::keyClick(table, Qt::Key_Home, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(model->data(model->index(11, 1)).toString(), QString("999988"),
                              kRowsTimeoutMs);
    QTest::mouseClick(view->openButton(), Qt::LeftButton);
    QWidget* viewer = view->openViewer();
    QVERIFY(viewer && viewer->isVisible());
    auto* big = viewer->findChild<DataTableView*>();
    QVERIFY(big && big->model() == model);
    QVERIFY(QTest::qWaitForWindowExposed(viewer));
    QTRY_VERIFY_WITH_TIMEOUT(big->rowAt(big->viewport()->height() - 2) > 11, 5000);
    viewer->close();
    QApplication::setActiveWindow(m_nb.window());

    // Paging and sorting moved no execution count: the next cell is the next number.
    CellWidget* next = run(page, "1 + 1");
    QCOMPARE(next->cell()->executionCount(), std::optional<int>(*count + 1));

    // The kernel restarts: rows already here stay, the rest are not available any more.
    QSignalSpy restarted(page->session()->kernel(), &NotebookKernel::stateChanged);
    QString restartError = "pending";
    page->session()->kernel()->restart([&](QString error) { restartError = error; });
    QTRY_VERIFY_WITH_TIMEOUT(restartError != "pending", 60000);
    QVERIFY2(restartError.isEmpty(), qPrintable(restartError));
    table->scrollTo(model->index(500000, 1));
    QTRY_VERIFY_WITH_TIMEOUT(!model->unavailableReason().isEmpty(), kRowsTimeoutMs);
    QVERIFY2(view->statusText().startsWith("More rows are not available"),
             qPrintable(view->statusText()));
    QVERIFY2(view->statusText().contains("gone"), qPrintable(view->statusText()));
    QCOMPARE(model->data(model->index(0, 1)).toString(), QString("999999"));
    QCOMPARE(model->data(model->index(500000, 1)).toString(), QString()); // not "…" for ever
}

QTEST_MAIN(TestDataViewer)
#include "tst_dataviewer.moc"
