// The contextual help panel beside a notebook's cells, with a scripted runner standing in for
// the kernel: Ctrl+I and the action show and hide it; it follows the cursor after a pause, one
// request per stop; only Python code cells ask; nothing is asked while a cell runs (the answer
// comes after the run); Shift+Tab's help lands there too.
#include "../notebook/scriptedrunner.h"
#include "../support/screenshot.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/helppanel.h"
#include "ui/notebook/notebookpage.h"

#include <QAction>
#include <QApplication>
#include <QtTest>

using namespace lizard::notebook;
using namespace lizard::ui::notebook;

namespace {
const QString kLinspace =
    "\x1b[0;31mSignature:\x1b[0m np.linspace(start, stop, num=50)\n"
    "\x1b[0;31mDocstring:\x1b[0m Return evenly spaced numbers over an interval.";
const QString kZeros =
    "\x1b[0;31mSignature:\x1b[0m np.zeros(shape, dtype=float)\n"
    "\x1b[0;31mDocstring:\x1b[0m Return a new array of given shape, filled with zeros.";
} // namespace

class TestNotebookHelp : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void ctrlIShowsAndHidesThePanel();
    void followsTheCursorAfterAPause();
    void onlyPythonCodeCellsAsk();
    void waitsForARunningCell();
    void shiftTabHelpGoesToThePanel();

private:
    CellListWidget* list() const { return m_page->cells(); }
    CellEditor* editor(int i = 0) const { return list()->cellWidget(i)->editor(); }
    HelpPanel* panel() const { return m_page->helpPanel(); }
    void moveTo(int position, int cell = 0)
    {
        QTextCursor c = editor(cell)->textCursor();
        c.setPosition(position);
        editor(cell)->setTextCursor(c);
    }
    void showPanel()
    {
        QTest::keyClick(editor(), Qt::Key_I, Qt::ControlModifier);
        QTRY_VERIFY(panel()->isVisible());
    }

    // The pause after which the panel asks. A check that nothing was asked waits a few of them:
    // an ask that was coming would have come by then.
    static constexpr int kPauseMs = 250;
    static void waitPastThePause() { QTest::qWait(2 * kPauseMs); }

    lizard::notebook::test::ScriptedRunner* m_runner = nullptr;
    NotebookPage* m_page = nullptr;
};

void TestNotebookHelp::init()
{
    m_runner = new lizard::notebook::test::ScriptedRunner;
    m_runner->helpByName = {{"np.linspace", kLinspace}, {"np.zeros", kZeros}};
    m_page = new NotebookPage("sb-test", m_runner, nullptr);
    m_page->helpPanel()->setDebounce(kPauseMs);
    m_page->resize(1000, 500);
    m_page->show();
    QApplication::setActiveWindow(m_page);
    QVERIFY(QTest::qWaitForWindowActive(m_page));
    list()->enterEditMode();
    QTRY_VERIFY(editor()->hasFocus());
}

void TestNotebookHelp::cleanup()
{
    m_page->document()->setClean();
    delete m_page;
    m_page = nullptr;
}

void TestNotebookHelp::ctrlIShowsAndHidesThePanel()
{
    QVERIFY(!panel()->isVisible());
    QTest::keyClicks(editor(), "np.linspace");
    waitPastThePause();
    QVERIFY(m_runner->inspectCalls.isEmpty()); // hidden: nothing asked
    showPanel();
    QVERIFY(m_page->helpAction()->isChecked());
    // Shown, it catches up with where the cursor already is.
    QTRY_COMPARE(panel()->helpText(),
                 QString("Signature: np.linspace(start, stop, num=50)\n"
                         "Docstring: Return evenly spaced numbers over an interval."));
    QTest::keyClick(editor(), Qt::Key_I, Qt::ControlModifier);
    QTRY_VERIFY(!panel()->isVisible());
    QVERIFY(!m_page->helpAction()->isChecked());
    QCOMPARE(m_page->document()->cell(0)->source(), QString("np.linspace")); // Ctrl+I typed nothing
}

void TestNotebookHelp::followsTheCursorAfterAPause()
{
    QTest::keyClicks(editor(), "a = np.linspace(0, 1, 5)");
    QTest::keyClick(editor(), Qt::Key_Return);
    QTest::keyClicks(editor(), "b = np.zeros(3)");
    showPanel();
    moveTo(8); // inside "linspace"
    QTRY_VERIFY(panel()->helpText().contains("Return evenly spaced numbers"));
    QCOMPARE(m_runner->inspectCalls.last(), QString("a = np.l|inspace(0, 1, 5)\nb = np.zeros(3)"));
    QVERIFY(panel()->statusText().isEmpty());

    // Arrowing along the next line: one request once the cursor stops, not one per key.
    const int before = int(m_runner->inspectCalls.size());
    moveTo(33); // after "np.z" on the second line
    for (int i = 0; i < 4; ++i)
        QTest::keyClick(editor(), Qt::Key_Right);
    QTRY_VERIFY(panel()->helpText().contains("filled with zeros"));
    QCOMPARE(m_runner->inspectCalls.size(), before + 1);
    QCOMPARE(m_runner->inspectCalls.last(), QString("a = np.linspace(0, 1, 5)\nb = np.zeros|(3)"));

    // Away from any name: nothing asked, the last help stays (as in JupyterLab).
    moveTo(28); // between "=" and " " on the second line: no name on either side
    waitPastThePause();
    QCOMPARE(m_runner->inspectCalls.size(), before + 1);
    QVERIFY(panel()->helpText().contains("filled with zeros"));

    QPixmap shot = m_page->grab();
    QVERIFY(!shot.isNull());
    lizard::test::saveScreenshot(shot, "notebook-contextual-help");
}

void TestNotebookHelp::onlyPythonCodeCellsAsk()
{
    QTest::keyClicks(editor(), "np.linspace");
    list()->setCodeLanguage("bash");
    showPanel();
    moveTo(5);
    waitPastThePause();
    QVERIFY(m_runner->inspectCalls.isEmpty());
    QCOMPARE(panel()->statusText(),
             QString("Move the cursor onto a name in a Python cell to see its "
                     "signature and documentation here."));
    list()->setCodeLanguage("python");
    list()->setCurrentType(CellType::Markdown);
    moveTo(6);
    waitPastThePause();
    QVERIFY(m_runner->inspectCalls.isEmpty());
    list()->setCurrentType(CellType::Code);
    moveTo(7);
    QTRY_COMPARE(m_runner->inspectCalls.size(), 1);
}

void TestNotebookHelp::waitsForARunningCell()
{
    showPanel();
    QTest::keyClicks(editor(), "wait");
    QTest::keyClick(editor(), Qt::Key_Return, Qt::AltModifier); // run, insert a cell below
    QTRY_COMPARE(list()->count(), 2);
    QTRY_VERIFY(m_runner->waiting);
    QTRY_VERIFY(editor(1)->hasFocus());
    const int before = int(m_runner->inspectCalls.size());
    QTest::keyClicks(editor(1), "np.zeros");
    QTRY_COMPARE(panel()->statusText(), QString("A cell is running: help follows when it ends."));
    QCOMPARE(m_runner->inspectCalls.size(), before); // it would only wait behind the run
    m_runner->release();
    QTRY_VERIFY(panel()->helpText().contains("filled with zeros"));
    QCOMPARE(m_runner->inspectCalls.size(), before + 1);
    QVERIFY(panel()->statusText().isEmpty());
}

void TestNotebookHelp::shiftTabHelpGoesToThePanel()
{
    showPanel();
    panel()->setDebounce(60000); // only Shift+Tab asks in this test
    m_runner->help = "\x1b[0;31mSignature:\x1b[0m print(*args, sep=' ', end='\\n')";
    QTest::keyClicks(editor(), "print");
    QTest::keyClick(editor(), Qt::Key_Backtab);
    QTRY_COMPARE(panel()->helpText(), QString("Signature: print(*args, sep=' ', end='\\n')"));
    QCOMPARE(m_runner->inspectCalls.size(), 1);
}

QTEST_MAIN(TestNotebookHelp)
#include "tst_notebookhelp.moc"
