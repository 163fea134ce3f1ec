// The notebook keeps the active cell in view (Shift+Enter, inserts, Up/Down) and follows a
// streaming cell's output like a terminal: scrolling up stops following, scrolling back to the
// end resumes it. Once the run has ended the view is the user's: an output of the finished cell
// changing height (a web view made, dropped or measured) does not move it. Runs go to a scripted
// runner.
#include "../notebook/scriptedrunner.h"
#include "../support/screenshot.h"
#include "notebook/runqueue.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/outputview.h"

#include <QApplication>
#include <QScrollBar>
#include <QtTest>

using namespace lizard::notebook;
using namespace lizard::ui::notebook;

class TestNotebookScroll : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void shiftEnterKeepsActiveCellInView();
    void insertAndMoveKeepActiveCellInView();
    void streamingOutputIsFollowed();
    void finishedCellIsNotFollowed();

private:
    CellListWidget* list() const { return m_page->cells(); }
    QScrollBar* bar() const { return list()->verticalScrollBar(); }
    // The widget's rectangle in the viewport's coordinates.
    QRect inViewport(QWidget* w) const
    {
        return {w->mapTo(list()->viewport(), QPoint(0, 0)), w->size()};
    }
    bool fullyVisible(QWidget* w) const
    {
        return list()->viewport()->rect().contains(inViewport(w));
    }
    bool endVisible(QWidget* w) const
    {
        const int bottom = inViewport(w).bottom();
        return bottom >= 0 && bottom <= list()->viewport()->height();
    }
    void key(int k, Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        QWidget* target = QApplication::focusWidget() ? QApplication::focusWidget() : list();
        QTest::keyClick(target, Qt::Key(k), mods);
    }
    void fill(int cells, const QString& source)
    {
        m_page->document()->cell(0)->setSource(source);
        for (int i = 1; i < cells; ++i)
            m_page->document()->insertCell(i, CellType::Code, source);
        list()->setCurrentIndex(0);
    }

    lizard::notebook::test::ScriptedRunner* m_runner = nullptr;
    NotebookPage* m_page = nullptr;
};

void TestNotebookScroll::init()
{
    m_runner = new lizard::notebook::test::ScriptedRunner;
    m_page = new NotebookPage("sb-test", m_runner, nullptr);
    m_page->resize(800, 500);
    m_page->show();
    QApplication::setActiveWindow(m_page);
    QVERIFY(QTest::qWaitForWindowActive(m_page));
    list()->enterCommandMode();
}

void TestNotebookScroll::cleanup()
{
    m_page->document()->setClean();
    delete m_page;
    m_page = nullptr;
}

void TestNotebookScroll::shiftEnterKeepsActiveCellInView()
{
    fill(30, "out:one\nout:two\nout:three");
    QTRY_VERIFY(bar()->maximum() > 0); // the notebook is taller than the view
    for (int i = 0; i < 29; ++i) {
        key(Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(list()->currentIndex(), i + 1);
        QTRY_VERIFY2(fullyVisible(list()->currentWidget()),
                     qPrintable(QString("cell %1").arg(i + 1)));
    }
    QTRY_COMPARE(m_runner->calls.size(), 29);
    QTRY_COMPARE(list()->cellWidget(28)->promptText(), QString("In [29]:"));
    QVERIFY(fullyVisible(list()->currentWidget())); // outputs above it did not push it away
    QVERIFY(bar()->value() > 0);
    // The last cell runs: a new cell below, in edit mode and in view.
    key(Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(list()->count(), 31);
    QTRY_VERIFY(fullyVisible(list()->cellWidget(30)));
}

void TestNotebookScroll::insertAndMoveKeepActiveCellInView()
{
    fill(25, "x = 1\ny = 2");
    QTRY_VERIFY(bar()->maximum() > 0);
    for (int i = 0; i < 24; ++i)
        key(Qt::Key_Down);
    QCOMPARE(list()->currentIndex(), 24);
    QTRY_VERIFY(fullyVisible(list()->currentWidget()));
    QVERIFY(bar()->value() > 0);
    key(Qt::Key_B); // a new cell below the last one
    QCOMPARE(list()->currentIndex(), 25);
    QTRY_VERIFY(fullyVisible(list()->currentWidget()));
    for (int i = 0; i < 25; ++i)
        key(Qt::Key_Up);
    QCOMPARE(list()->currentIndex(), 0);
    QTRY_VERIFY(fullyVisible(list()->currentWidget()));
    QCOMPARE(bar()->value(), 0);
    key(Qt::Key_A); // above the first
    QTRY_VERIFY(fullyVisible(list()->currentWidget()));
}

void TestNotebookScroll::streamingOutputIsFollowed()
{
    fill(12, "x = 1");
    QString script;
    for (int part = 0; part < 3; ++part) {
        for (int i = 0; i < 40; ++i)
            script += QString("out:part %1 line %2\n").arg(part).arg(i);
        if (part < 2)
            script += "wait\n";
    }
    m_page->document()->cell(0)->setSource(script);
    CellWidget* running = list()->cellWidget(0);
    key(Qt::Key_Return, Qt::ShiftModifier);
    QTRY_VERIFY(m_runner->waiting);
    // 40 lines are taller than the view: it followed them to their end.
    QTRY_VERIFY(running->height() > list()->viewport()->height());
    QTRY_VERIFY(endVisible(running));
    QVERIFY(bar()->value() > 0);
    QVERIFY(list()->isFollowingOutput());
    lizard::test::saveScreenshot(m_page->grab(), "notebook-follow-output");

    // The user scrolls up to read: following stops, and more output does not move the view.
    bar()->triggerAction(QAbstractSlider::SliderPageStepSub);
    QVERIFY(!list()->isFollowingOutput());
    const int readingAt = bar()->value();
    const int heightBefore = running->height();
    m_runner->release();
    QTRY_VERIFY(m_runner->waiting);
    QTRY_VERIFY(running->height() > heightBefore);
    QTest::qWait(100);
    QCOMPARE(bar()->value(), readingAt);
    QVERIFY(!endVisible(running));

    // Back at the end: following resumes for the rest of the stream.
    bar()->triggerAction(QAbstractSlider::SliderToMaximum);
    QVERIFY(list()->isFollowingOutput());
    const int heightMid = running->height();
    m_runner->release();
    QTRY_VERIFY(running->height() > heightMid);
    QTRY_COMPARE(running->promptText(), QString("In [1]:"));
    QTRY_VERIFY(endVisible(running));
}

void TestNotebookScroll::finishedCellIsNotFollowed()
{
    fill(12, "x = 1");
    QString script;
    for (int i = 0; i < 60; ++i)
        script += QString("out:line %1\n").arg(i);
    m_page->document()->cell(0)->setSource(script);
    CellWidget* finished = list()->cellWidget(0);
    key(Qt::Key_Return, Qt::ShiftModifier);
    QTRY_COMPARE(finished->promptText(), QString("In [1]:"));
    // The run's end brought the view to the cell's end, once, and following ended.
    QTRY_VERIFY(!list()->isFollowingOutput());
    QVERIFY(finished->height() > list()->viewport()->height());
    QVERIFY(endVisible(finished));
    QVERIFY(bar()->value() > 0);

    // The user scrolls up a little (the cell's end still in view), then an output of the
    // finished cell grows, as a web view does when it is made and measured: the view stays.
    bar()->triggerAction(QAbstractSlider::SliderSingleStepSub);
    QVERIFY(endVisible(finished));
    const int readingAt = bar()->value();
    OutputView* output = finished->outputs()->view(0);
    QVERIFY(output);
    int before = finished->height();
    output->setMinimumHeight(output->height() + 400);
    QTRY_VERIFY(finished->height() > before);
    QTest::qWait(100);
    QCOMPARE(bar()->value(), readingAt);
    QVERIFY(!endVisible(finished));

    // Further up, it shrinks back and grows again (dropped, made again): still the user's view.
    bar()->triggerAction(QAbstractSlider::SliderPageStepSub);
    const int higherAt = bar()->value();
    before = finished->height();
    output->setMinimumHeight(0);
    QTRY_VERIFY(finished->height() < before);
    const int shrunk = finished->height();
    output->setMinimumHeight(output->height() + 250);
    QTRY_VERIFY(finished->height() > shrunk);
    QTest::qWait(100);
    QCOMPARE(bar()->value(), higherAt);

    // Running a cell follows again.
    list()->setCurrentIndex(1);
    m_page->document()->cell(1)->setSource(script);
    key(Qt::Key_Return, Qt::ControlModifier);
    QTRY_COMPARE(list()->cellWidget(1)->promptText(), QString("In [2]:"));
    QTRY_VERIFY(endVisible(list()->cellWidget(1)));
}

QTEST_MAIN(TestNotebookScroll)
#include "tst_notebookscroll.moc"
