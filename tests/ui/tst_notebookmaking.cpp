// A big notebook's cell widgets are made a few at a time: the first screen at once, the rest
// while the event loop turns. What a user does meanwhile (go to a far cell, insert, delete,
// move cells, open another notebook) finds every cell in its place, and the column ends in the
// document's order with one widget per cell. A page not shown yet makes no widgets, and File >
// Open reads the file off the UI thread and shows the page once the file is in. No part of a
// cell (its outputs) is ever shown as a window of its own while it is made.
#include "../notebook/scriptedrunner.h"
#include "client/lizardapi.h"
#include "notebook/ipynbwriter.h"
#include "support/screenshot.h"
#include "ui/mainwindow.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"

#include <QApplication>
#include <QFile>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace lizard::notebook;
using namespace lizard::ui::notebook;

class TestNotebookMaking : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void theFirstScreenComesFirst();
    void aFarCellIsMadeWhenAskedFor();
    void editsWhileMakingKeepTheOrder();
    void twoNotebooksTakeTurns();
    void aPageNotShownYetMakesNothing();
    void openingAFileReadsItOffTheUiThread();
    void cellsWithOutputsOpenNoWindowOfTheirOwn();

private:
    static NotebookData cells(int n, const QString& prefix = QStringLiteral("cell"));
    // Every widget made so far belongs to the document's cell at its index.
    bool inOrder(CellListWidget* list) const;

    NotebookPage* page(int n);
    QList<NotebookPage*> m_pages;
};

NotebookData TestNotebookMaking::cells(int n, const QString& prefix)
{
    NotebookData data;
    for (int i = 0; i < n; ++i) {
        CellData c;
        c.source = QStringLiteral("%1_%2 = %2\nprint(%1_%2)").arg(prefix).arg(i);
        data.cells.push_back(c);
    }
    return data;
}

bool TestNotebookMaking::inOrder(CellListWidget* list) const
{
    NotebookPage* page = nullptr;
    for (QWidget* w = list; w && !page; w = w->parentWidget())
        page = qobject_cast<NotebookPage*>(w);
    for (int i = 0; i < list->count(); ++i) {
        CellWidget* w = list->madeCellWidget(i);
        if (w && w->cell() != page->document()->cell(i))
            return false;
    }
    return true;
}

NotebookPage* TestNotebookMaking::page(int n)
{
    auto* p = new NotebookPage("sb-test", new lizard::notebook::test::ScriptedRunner, nullptr);
    p->resize(900, 600);
    p->show();
    p->document()->reset(cells(n));
    m_pages << p;
    return p;
}

void TestNotebookMaking::init() {}

void TestNotebookMaking::cleanup()
{
    for (NotebookPage* p : std::as_const(m_pages)) {
        p->document()->setClean();
        delete p;
    }
    m_pages.clear();
}

void TestNotebookMaking::theFirstScreenComesFirst()
{
    NotebookPage* p = page(400);
    CellListWidget* list = p->cells();
    QCOMPARE(list->count(), 400);
    QVERIFY(!list->isComplete());
    QVERIFY(list->madeCellWidget(0)); // the first screen is there at once
    QVERIFY(!list->madeCellWidget(399));
    QCOMPARE(list->currentIndex(), 0);
    QSignalSpy completed(list, &CellListWidget::completed);
    QTRY_VERIFY_WITH_TIMEOUT(list->isComplete(), 60000);
    QCOMPARE(completed.count(), 1);
    QCOMPARE(p->findChildren<CellWidget*>().size(), 400);
    QVERIFY(inOrder(list));
    // The column holds them all, one below the other.
    QVERIFY(list->cellWidget(399)->y() > list->cellWidget(398)->y());
    CellWidget* last = list->cellWidget(399);
    QTRY_VERIFY(list->verticalScrollBar()->maximum() + list->viewport()->height() >=
                last->y() + last->height());
}

// Counts the windows shown while it lives (a widget shown before it has a parent is one).
class WindowsShown : public QObject
{
public:
    WindowsShown() { qApp->installEventFilter(this); }
    QStringList shown;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Show && watched->isWidgetType() &&
            static_cast<QWidget*>(watched)->isWindow())
            shown << QString::fromLatin1(watched->metaObject()->className());
        return false;
    }
};

void TestNotebookMaking::cellsWithOutputsOpenNoWindowOfTheirOwn()
{
    NotebookData data;
    for (int i = 0; i < 60; ++i) {
        CellData c;
        c.source = QStringLiteral("print(%1)").arg(i);
        c.executionCount = i + 1;
        c.outputs.push_back(StreamOutput{"stdout", QStringLiteral("%1\n").arg(i), std::nullopt});
        data.cells.push_back(c);
    }
    auto* p = new NotebookPage("sb-test", new lizard::notebook::test::ScriptedRunner, nullptr);
    m_pages << p;
    p->resize(900, 600);
    p->show();
    QVERIFY(QTest::qWaitForWindowExposed(p));
    WindowsShown windows;
    p->document()->reset(data);
    CellListWidget* list = p->cells();
    QTRY_VERIFY_WITH_TIMEOUT(list->isComplete(), 60000);
    QCoreApplication::processEvents();
    // Each cell's output is in the page (on X11 a window of its own would flash on the screen,
    // and cost a window and a paint of its own).
    QCOMPARE(windows.shown, QStringList());
    for (int i = 0; i < 60; ++i) {
        CellWidget* cell = list->cellWidget(i);
        QVERIFY(cell->isVisible());
        QVERIFY(cell->findChild<OutputArea*>()->isVisible());
        QCOMPARE(cell->findChild<OutputArea*>()->window(), p);
    }
}

void TestNotebookMaking::aFarCellIsMadeWhenAskedFor()
{
    NotebookPage* p = page(400);
    CellListWidget* list = p->cells();
    QVERIFY(!list->madeCellWidget(300));
    list->setCurrentIndex(300); // as the table of contents or a search does
    QVERIFY(list->madeCellWidget(300));
    QVERIFY(list->madeCellWidget(301)); // and a screen below it, to scroll it to the top
    QCOMPARE(list->currentWidget()->cell(), p->document()->cell(300));
    QVERIFY(inOrder(list));
    QTRY_VERIFY_WITH_TIMEOUT(list->isComplete(), 60000);
}

void TestNotebookMaking::editsWhileMakingKeepTheOrder()
{
    NotebookPage* p = page(300);
    CellListWidget* list = p->cells();
    NotebookDocument* doc = p->document();
    const int made = int(p->findChildren<CellWidget*>().size());
    QVERIFY(made < 300);
    doc->insertCell(1, CellType::Markdown); // among the made ones
    doc->insertCell(250, CellType::Code);   // past them
    doc->removeCell(260);                   // past them
    doc->moveCell(2, 200);                  // from the made ones to past them
    QVERIFY(inOrder(list));
    QCOMPARE(list->count(), 301);
    QTRY_VERIFY_WITH_TIMEOUT(list->isComplete(), 60000);
    QVERIFY(inOrder(list));
    QCOMPARE(p->findChildren<CellWidget*>().size(), 301);
    QCOMPARE(list->cellWidget(1)->cell()->type(), CellType::Markdown);
}

void TestNotebookMaking::twoNotebooksTakeTurns()
{
    NotebookPage* a = page(200);
    NotebookPage* b = page(200);
    QVERIFY(!a->cells()->isComplete() && !b->cells()->isComplete());
    QTRY_VERIFY_WITH_TIMEOUT(a->cells()->isComplete() && b->cells()->isComplete(), 60000);
    QVERIFY(inOrder(a->cells()) && inOrder(b->cells()));
}

void TestNotebookMaking::aPageNotShownYetMakesNothing()
{
    auto* p = new NotebookPage("sb-test", new lizard::notebook::test::ScriptedRunner, nullptr);
    m_pages << p;
    p->resize(900, 600);
    p->document()->reset(cells(200));
    CellListWidget* list = p->cells();
    QTest::qWait(200); // turns of the loop in which a shown page would have made many
    const int made = int(p->findChildren<CellWidget*>().size());
    QVERIFY2(made <= 2, qPrintable(QString::number(made))); // at most the current cell's
    QVERIFY(list->cellWidget(150));                         // asked for: made at once
    p->show();
    QTRY_VERIFY_WITH_TIMEOUT(list->isComplete(), 60000);
    QCOMPARE(p->findChildren<CellWidget*>().size(), 200);
    QVERIFY(inOrder(list));
}

void TestNotebookMaking::openingAFileReadsItOffTheUiThread()
{
    QTemporaryDir dir;
    const QString good = dir.filePath("big.ipynb");
    QVERIFY(!IpynbWriter::writeFile(good, cells(300)).has_value());
    const QString broken = dir.filePath("broken.ipynb");
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write("{ \"cells\": [") > 0);
    f.close();

    lizard::ui::MainWindow window;
    auto* controller = new NotebookController(window.workbench(),
                                              RecoveryStore(dir.filePath("recovery")), &window);
    // Nothing runs here: the address answers nothing.
    lizard::client::LizardApi api(
        lizard::client::Endpoint{QStringLiteral("http://127.0.0.1:9"), QStringLiteral("liz_x")});
    window.setBackend(&api, QStringLiteral("test"), {});
    window.resize(1000, 700);
    window.show();

    NotebookPage* opened = nullptr;
    QString error;
    int answers = 0;
    const auto done = [&](NotebookPage* page, const QString& why) {
        ++answers;
        opened = page;
        error = why;
    };
    controller->openFile(good, QStringLiteral("sb-test"), done);
    QCOMPARE(answers, 0); // read on a pool thread: the answer comes in a later turn
    QVERIFY(controller->pages().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(answers, 1, 30000);
    QVERIFY2(opened, qPrintable(error));
    QCOMPARE(controller->pages(), QList<NotebookPage*>{opened});
    QCOMPARE(controller->currentPage(), opened);
    QCOMPARE(opened->document()->cellCount(), 300);
    QCOMPARE(opened->session()->file()->path(), good);
    QVERIFY(opened->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(opened->cells()->isComplete(), 60000);
    QVERIFY(inOrder(opened->cells()));
    lizard::test::saveScreenshot(&window, QStringLiteral("notebook-opened-from-file"));

    controller->openFile(good, QStringLiteral("sb-test"), done); // open already: shown at once
    QCOMPARE(answers, 2);
    QCOMPARE(opened, controller->pages().first());

    controller->openFile(broken, QStringLiteral("sb-test"), done);
    QTRY_COMPARE_WITH_TIMEOUT(answers, 3, 30000);
    QVERIFY(!opened);
    QVERIFY2(error.contains("broken.ipynb"), qPrintable(error));
    QCOMPARE(controller->pages().size(), 1); // nothing shown for it
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("{ \"cells\": [")); // and the file as it was
    controller->pages().first()->document()->setClean();
}

QTEST_MAIN(TestNotebookMaking)
#include "tst_notebookmaking.moc"
