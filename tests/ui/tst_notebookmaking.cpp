// A big notebook's cell widgets are made a few at a time: the first screen at once, the rest
// while the event loop turns. What a user does meanwhile (go to a far cell, insert, delete,
// move cells, open another notebook) finds every cell in its place, and the column ends in the
// document's order with one widget per cell.
#include "../notebook/scriptedrunner.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/notebookpage.h"

#include <QApplication>
#include <QScrollBar>
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
    auto* page = qobject_cast<NotebookPage*>(list->window());
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

QTEST_MAIN(TestNotebookMaking)
#include "tst_notebookmaking.moc"
