// Tab completion and Shift+Tab help in a cell editor, with a scripted runner standing in for the
// kernel: the popup with kinds, filtering as you type, Enter/Tab insert, Esc, Tab still indenting,
// late answers dropped, word completion for bash and javascript, the help tooltip.
#include "../notebook/scriptedrunner.h"
#include "../support/screenshot.h"
#include "ui/notebook/cellcompleter.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/completionpopup.h"
#include "ui/notebook/notebookpage.h"

#include <QApplication>
#include <QSignalSpy>
#include <QtTest>

using namespace lizard::notebook;
using namespace lizard::ui::notebook;

class TestNotebookComplete : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void tabShowsKernelMatchesWithKinds();
    void typingFilters();
    void tabInsertsAndEscCloses();
    void tabStillIndents_data();
    void tabStillIndents();
    void lateAnswerForAnotherCursorIsDropped();
    void typingMoreKeepsTheAnswer();
    void bashCompletesNotebookWords();
    void shiftTabShowsHelp();

private:
    CellListWidget* list() const { return m_page->cells(); }
    CellEditor* editor() const { return list()->cellWidget(0)->editor(); }
    CellCompleter* completer() const { return list()->cellWidget(0)->findChild<CellCompleter*>(); }
    CompletionPopup* popup() const { return completer()->popup(); }
    QString source() const { return m_page->document()->cell(0)->source(); }
    void type(const QString& text) { QTest::keyClicks(editor(), text); }
    void key(int k, Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        QTest::keyClick(editor(), Qt::Key(k), mods);
    }

    lizard::notebook::test::ScriptedRunner* m_runner = nullptr;
    NotebookPage* m_page = nullptr;
};

void TestNotebookComplete::init()
{
    m_runner = new lizard::notebook::test::ScriptedRunner;
    m_runner->completions = {{"linspace", "function"},
                             {"linalg", "module"},
                             {"lib", "module"},
                             {"ndarray", "class"},
                             {"pi", "instance"}};
    m_page = new NotebookPage("sb-test", m_runner, nullptr);
    m_page->resize(800, 500);
    m_page->show();
    QApplication::setActiveWindow(m_page);
    QVERIFY(QTest::qWaitForWindowActive(m_page));
    list()->enterEditMode();
    QTRY_VERIFY(editor()->hasFocus());
}

void TestNotebookComplete::cleanup()
{
    m_page->document()->setClean();
    delete m_page;
    m_page = nullptr;
}

void TestNotebookComplete::tabShowsKernelMatchesWithKinds()
{
    type("np.li");
    key(Qt::Key_Tab);
    QCOMPARE(m_runner->completeCalls, QStringList{"np.li|"});
    QCOMPARE(source(), QString("np.li")); // no indent: Tab asked for completions
    QTRY_VERIFY(completer()->isPopupVisible());
    QCOMPARE(popup()->visibleMatches(), QStringList({"linspace", "linalg", "lib"}));
    QCOMPARE(popup()->kindOf("linspace"), QString("function"));
    QCOMPARE(popup()->kindOf("linalg"), QString("module"));
    QVERIFY(popup()->item(0)->text().contains("function"));
    QVERIFY(editor()->hasFocus()); // the popup never takes the keyboard
    lizard::test::saveScreenshot(m_page->grab(), "notebook-completion");
    lizard::test::saveScreenshot(popup()->grab(), "notebook-completion-popup");
}

void TestNotebookComplete::typingFilters()
{
    type("np.li");
    key(Qt::Key_Tab);
    QTRY_VERIFY(completer()->isPopupVisible());
    type("n");
    QCOMPARE(popup()->visibleMatches(), QStringList({"linspace", "linalg"}));
    type("s");
    QCOMPARE(popup()->visibleMatches(), QStringList{"linspace"});
    key(Qt::Key_Backspace);
    key(Qt::Key_Backspace);
    QCOMPARE(popup()->visibleMatches(), QStringList({"linspace", "linalg", "lib"}));
    type("x"); // nothing matches any more
    QVERIFY(!completer()->isPopupVisible());
    QCOMPARE(source(), QString("np.lix"));
}

void TestNotebookComplete::tabInsertsAndEscCloses()
{
    type("np.lin");
    key(Qt::Key_Tab);
    QTRY_VERIFY(completer()->isPopupVisible());
    key(Qt::Key_Down);
    QCOMPARE(popup()->currentMatch(), QString("linalg"));
    key(Qt::Key_Return);
    QVERIFY(!completer()->isPopupVisible());
    QCOMPARE(source(), QString("np.linalg"));
    QCOMPARE(editor()->textCursor().position(), 9);

    key(Qt::Key_Return);
    type("x = np.l");
    key(Qt::Key_Tab);
    QTRY_VERIFY(completer()->isPopupVisible());
    key(Qt::Key_Tab); // Tab inserts too
    QCOMPARE(source(), QString("np.linalg\nx = np.linspace"));

    type(" + np.");
    key(Qt::Key_Tab);
    QTRY_VERIFY(completer()->isPopupVisible());
    QCOMPARE(popup()->visibleMatches().size(), 5);
    key(Qt::Key_Escape); // closes the popup, stays in edit mode
    QVERIFY(!completer()->isPopupVisible());
    QCOMPARE(list()->mode(), CellListWidget::Mode::Edit);
    QVERIFY(editor()->hasFocus());
    QCOMPARE(source(), QString("np.linalg\nx = np.linspace + np."));
    key(Qt::Key_Escape); // then Esc is command mode again
    QCOMPARE(list()->mode(), CellListWidget::Mode::Command);
}

void TestNotebookComplete::tabStillIndents_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::newRow("line start") << ""
                                << "    ";
    QTest::newRow("after a space") << "x = "
                                   << "x =     ";
    QTest::newRow("after a colon") << "if a:"
                                   << "if a:   ";
}

void TestNotebookComplete::tabStillIndents()
{
    QFETCH(QString, before);
    QFETCH(QString, after);
    type(before);
    key(Qt::Key_Tab);
    QCOMPARE(source(), after);
    QVERIFY(m_runner->completeCalls.isEmpty());
    QTest::qWait(20);
    QVERIFY(!completer()->isPopupVisible());
}

void TestNotebookComplete::lateAnswerForAnotherCursorIsDropped()
{
    m_runner->holdCompletions = true;
    type("np.li");
    key(Qt::Key_Tab);
    type(" = 3"); // the user went on: the answer comes too late for that cursor
    m_runner->answerCompletions();
    QTest::qWait(20);
    QVERIFY(!completer()->isPopupVisible());
    QCOMPARE(source(), QString("np.li = 3"));
    // A newer request wins over an older one still on its way.
    key(Qt::Key_Home);
    key(Qt::Key_End);
    key(Qt::Key_Return);
    type("np.n");
    key(Qt::Key_Tab);
    QCOMPARE(m_runner->completeCalls.size(), 2);
    m_runner->answerCompletions();
    QTRY_VERIFY(completer()->isPopupVisible());
    QCOMPARE(popup()->visibleMatches(), QStringList{"ndarray"});
}

void TestNotebookComplete::typingMoreKeepsTheAnswer()
{
    m_runner->holdCompletions = true;
    type("np.l");
    key(Qt::Key_Tab);
    type("in"); // typed while waiting: the answer still fits, filtered by it
    m_runner->answerCompletions();
    QTRY_VERIFY(completer()->isPopupVisible());
    QCOMPARE(popup()->visibleMatches(), QStringList({"linspace", "linalg"}));
    key(Qt::Key_Return);
    QCOMPARE(source(), QString("np.linspace"));
}

void TestNotebookComplete::bashCompletesNotebookWords()
{
    list()->setCodeLanguage("bash");
    m_page->document()->insertCell(1, CellType::Code,
                                   "export GREETING=hello\necho $GREETING greetings");
    type("echo $GRE");
    key(Qt::Key_Tab);
    QTRY_VERIFY(completer()->isPopupVisible());
    QVERIFY(m_runner->completeCalls.isEmpty()); // no kernel state: nothing asked
    QCOMPARE(popup()->visibleMatches(), QStringList{"GREETING"});
    QCOMPARE(popup()->kindOf("GREETING"), QString("word"));
    key(Qt::Key_Return);
    QCOMPARE(source(), QString("echo $GREETING"));
}

void TestNotebookComplete::shiftTabShowsHelp()
{
    m_runner->help = "\x1b[0;31mSignature:\x1b[0m np.linspace(start, stop, num=50)\nReturn evenly "
                     "spaced numbers.";
    QSignalSpy shown(completer(), &CellCompleter::helpShown);
    type("np.linspace");
    key(Qt::Key_Backtab);
    QVERIFY(shown.wait(2000));
    QCOMPARE(completer()->helpText(),
             QString("Signature: np.linspace(start, stop, num=50)\nReturn evenly spaced numbers."));
    QCOMPARE(source(), QString("np.linspace")); // no dedent, no text change
    // In the indentation Shift+Tab still dedents.
    key(Qt::Key_Return);
    key(Qt::Key_Tab);
    key(Qt::Key_Backtab);
    QCOMPARE(source(), QString("np.linspace\n"));
}

QTEST_MAIN(TestNotebookComplete)
#include "tst_notebookcomplete.moc"
