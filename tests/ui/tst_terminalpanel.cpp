// The Terminal tab against a real lizard-local, typed into as a user would: the sandbox's login
// shell opens by itself; vim edits and writes a file; top draws its full screen; a resize of
// the widget reaches `stty size`; the program's title names the tab; Open terminal here starts
// in the folder; an app that starts again attaches to the same terminal with its screen; exit
// says so. Saves the guide's pictures (docs/guide/terminal-vim.png, terminal-htop.png).
#include "models/terminals/terminalsession.h"
#include "models/terminals/terminalsessions.h"
#include "support/sandboxfixture.h"
#include "support/screenshot.h"
#include "ui/mainwindow.h"
#include "ui/terminal/terminalarea.h"
#include "ui/terminal/terminalpane.h"
#include "ui/terminal/terminaltabs.h"
#include "ui/terminal/terminalview.h"

#include <QLabel>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTest>

using namespace lizard;
using models::TerminalSession;

class TestTerminalPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }

    void loginShellOpensByItself();
    void vimWritesAFile();
    void topDrawsItsScreen();
    void resizeReachesTheProgram();
    void titleAndRename();
    void openTerminalHere();
    void floodIsThrottled();
    void appRestartAttachesAgain();
    void exitIsShown();

private:
    ui::TerminalTabs* tabs() const;
    ui::TerminalPane* pane() const;
    ui::TerminalView* view() const { return pane() ? pane()->view() : nullptr; }
    bool attached() const
    {
        return pane() && pane()->session()->state() == TerminalSession::State::Attached;
    }
    // Types `text` into the terminal as keys, then Enter.
    void type(const QString& text, bool enter = true);
    bool screenShows(const QString& text, int timeoutMs = 15000);
    bool screenMatches(const QRegularExpression& re, int timeoutMs = 15000);

    lizard::test::SandboxFixture m_fx;
    std::unique_ptr<ui::MainWindow> m_window;
    ui::TerminalArea* m_area = nullptr;
};

void TestTerminalPanel::initTestCase()
{
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
    m_window = std::make_unique<ui::MainWindow>();
    m_window->setBackend(&m_fx.api(), "test", {});
    m_window->resize(1100, 760);
    m_window->show();
    m_area = m_window->terminalArea();
    QVERIFY(m_area);
    auto* tools = m_window->findChild<QTabWidget*>(QStringLiteral("sandboxTools"));
    QVERIFY(tools);
    tools->setCurrentWidget(m_area);
    m_area->showSandbox(m_fx.sandboxId());
}

void TestTerminalPanel::cleanupTestCase()
{
    m_window.reset();
}

ui::TerminalTabs* TestTerminalPanel::tabs() const
{
    return m_area ? m_area->currentTabs() : nullptr;
}

ui::TerminalPane* TestTerminalPanel::pane() const
{
    return tabs() ? tabs()->currentPane() : nullptr;
}

void TestTerminalPanel::type(const QString& text, bool enter)
{
    view()->setFocus();
    QTest::keyClicks(view(), text);
    if (enter)
        QTest::keyClick(view(), Qt::Key_Return);
}

bool TestTerminalPanel::screenShows(const QString& text, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        if (view()) {
            view()->flush();
            if (view()->screenText().contains(text))
                return true;
        }
        QTest::qWait(30);
    }
    qWarning().noquote() << "screen:\n" << (view() ? view()->screenText() : QString());
    return false;
}

bool TestTerminalPanel::screenMatches(const QRegularExpression& re, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        if (view()) {
            view()->flush();
            if (re.match(view()->screenText()).hasMatch())
                return true;
        }
        QTest::qWait(30);
    }
    qWarning().noquote() << "screen:\n" << (view() ? view()->screenText() : QString());
    return false;
}

void TestTerminalPanel::loginShellOpensByItself()
{
    // Opening the tab of a sandbox without terminals starts its login shell.
    QTRY_VERIFY_WITH_TIMEOUT(attached(), 15000);
    QCOMPARE(tabs()->tabs()->count(), 1);
    type(QStringLiteral("echo ready-$((20+3))"));
    QVERIFY(screenShows(QStringLiteral("ready-23")));
    QVERIFY(view()->hasFocus());
}

void TestTerminalPanel::vimWritesAFile()
{
    type(QStringLiteral("vim -u NONE -N -c 'syntax on' /tmp/x.py"));
    // vim's screen: the alternate screen, tildes for the lines past the end of the buffer.
    QTRY_VERIFY_WITH_TIMEOUT(view()->isAlternateScreen(), 10000);
    QVERIFY(screenShows(QStringLiteral("\n~")));
    QTest::keyClicks(view(), QStringLiteral("idef hello():"));
    QTest::keyClick(view(), Qt::Key_Return);
    QTest::keyClicks(view(), QStringLiteral("    return \"from vim\", 42"));
    QTest::keyClick(view(), Qt::Key_Escape);
    QVERIFY(screenShows(QStringLiteral("return \"from vim\", 42")));
    // Out of insert mode (vim waits a moment after Esc for a key sequence).
    QTRY_VERIFY_WITH_TIMEOUT(!view()->screenText().contains(QLatin1String("-- INSERT --")), 5000);
    lizard::test::saveScreenshot(m_window.get(), QStringLiteral("terminal-vim"));
    QTest::keyClicks(view(), QStringLiteral(":wq"));
    QTest::keyClick(view(), Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(!view()->isAlternateScreen(), 10000);
    // The file, as the sandbox has it.
    type(QStringLiteral("echo \"[$(head -1 /tmp/x.py)] $(wc -l < /tmp/x.py)\""));
    QVERIFY(screenShows(QStringLiteral("[def hello():] 2")));
}

void TestTerminalPanel::topDrawsItsScreen()
{
    // htop where the sandbox has it (the guide's picture), else top: both full-screen,
    // redrawn by the second.
    type(QStringLiteral("command -v htop >/dev/null && htop || top"));
    QVERIFY(
        screenMatches(QRegularExpression(QStringLiteral("(Tasks:|Load average|load average)"))));
    QVERIFY(view()->isAlternateScreen());
    // The header is on the first rows of the grid, not somewhere in the scrollback.
    bool header = false;
    for (int row = 0; row < 4; ++row)
        header = header || view()->lineText(row).contains(QRegularExpression(
                               QStringLiteral("(Tasks|Load average|load average|CPU|Mem)")));
    QVERIFY2(header, qPrintable(view()->screenText()));
    QTest::qWait(1500); // a redraw or two: colours and meters settle
    lizard::test::saveScreenshot(m_window.get(), QStringLiteral("terminal-htop"));
    QTest::keyClick(view(), Qt::Key_Q);
    QTRY_VERIFY_WITH_TIMEOUT(!view()->isAlternateScreen(), 10000);
}

void TestTerminalPanel::resizeReachesTheProgram()
{
    m_window->resize(900, 700);
    QTest::qWait(200);
    const int cols = view()->columns();
    const int rows = view()->rows();
    QVERIFY(cols > 20 && rows > 5);
    type(QStringLiteral("clear; stty size"));
    QVERIFY(screenShows(QStringLiteral("%1 %2").arg(rows).arg(cols)));
    m_window->resize(1100, 760);
    QTest::qWait(200);
    QVERIFY(view()->columns() != cols);
    type(QStringLiteral("clear; stty size"));
    QVERIFY(screenShows(QStringLiteral("%1 %2").arg(view()->rows()).arg(view()->columns())));
}

void TestTerminalPanel::titleAndRename()
{
    // (The shell's prompt may set a title of its own: the program's stands while it runs.)
    type(QStringLiteral("printf '\\033]0;%s\\007' build-$((2*21)); sleep 4"));
    QTRY_COMPARE_WITH_TIMEOUT(tabs()->tabs()->tabText(tabs()->tabs()->currentIndex()),
                              QStringLiteral("build-42"), 10000);
    // A name given by the user wins over the program's title, and the server keeps it.
    auto* model = tabs()->model();
    pane()->setName(QStringLiteral("my shell"));
    model->rename(pane()->terminalId(), QStringLiteral("my shell"));
    QCOMPARE(tabs()->tabs()->tabText(tabs()->tabs()->currentIndex()), QStringLiteral("my shell"));
    // (rename lists the terminals again once the server took it.)
    const auto named = [model] {
        for (const auto& t : model->terminals())
            if (t.name == QLatin1String("my shell"))
                return true;
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(named(), 10000);
}

void TestTerminalPanel::openTerminalHere()
{
    const int before = tabs()->tabs()->count();
    m_area->openTerminal(m_fx.sandboxId(), QStringLiteral("/tmp"));
    QTRY_COMPARE_WITH_TIMEOUT(tabs()->tabs()->count(), before + 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(attached(), 10000);
    type(QStringLiteral("echo \"here=$(pwd)\""));
    QVERIFY(screenShows(QStringLiteral("here=/tmp")));
    tabs()->closeCurrent();
    QCOMPARE(tabs()->tabs()->count(), before);
}

void TestTerminalPanel::floodIsThrottled()
{
    // `yes` prints far faster than any view parses: the program waits on its terminal, the
    // app's backlog stays bounded, and Ctrl+C still stops it at once.
    type(QStringLiteral("yes"));
    qint64 most = 0;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 3000) {
        most = std::max(most, view()->pendingBytes());
        QTest::qWait(20);
    }
    QVERIFY2(most <= ui::TerminalPane::kMaxPendingOutput + 4 * 1024 * 1024,
             qPrintable(QString::number(most)));
    QVERIFY(attached());
    QTest::keyClick(view(), Qt::Key_C, Qt::ControlModifier);
    type(QStringLiteral("clear; echo flood-over-$((5+5))"));
    QVERIFY(screenShows(QStringLiteral("flood-over-10"), 20000));
}

void TestTerminalPanel::appRestartAttachesAgain()
{
    type(QStringLiteral("echo before-restart-$((3*3))"));
    QVERIFY(screenShows(QStringLiteral("before-restart-9")));
    const QString terminalId = pane()->terminalId();
    const int count = tabs()->tabs()->count();
    // The app quits (its windows and connections go), the server keeps the terminal.
    m_window.reset();
    m_area = nullptr;
    m_window = std::make_unique<ui::MainWindow>();
    m_window->setBackend(&m_fx.api(), "test", {});
    m_window->resize(1100, 760);
    m_window->show();
    m_area = m_window->terminalArea();
    m_window->findChild<QTabWidget*>(QStringLiteral("sandboxTools"))->setCurrentWidget(m_area);
    m_area->showSandbox(m_fx.sandboxId());
    QTRY_VERIFY_WITH_TIMEOUT(tabs() && tabs()->tabs()->count() == count, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(attached(), 15000);
    bool same = false;
    for (int i = 0; i < tabs()->tabs()->count(); ++i)
        same = same || tabs()->paneAt(i)->terminalId() == terminalId;
    QVERIFY(same);
    // Its screen comes back from the server's replay, and it takes typing.
    QVERIFY(screenShows(QStringLiteral("before-restart-9")));
    type(QStringLiteral("echo after-restart-$((4*4))"));
    QVERIFY(screenShows(QStringLiteral("after-restart-16")));
    // The replay repeated vim's and htop's terminal queries: the new view did not answer them
    // (answers would have reached the shell as typed commands).
    QVERIFY2(!view()->screenText().contains(QLatin1String("command not found")),
             qPrintable(view()->screenText()));
}

void TestTerminalPanel::exitIsShown()
{
    type(QStringLiteral("exit 7"));
    QTRY_COMPARE_WITH_TIMEOUT(pane()->session()->state(), TerminalSession::State::Exited, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(pane()->statusStrip()->isVisible(), 5000);
    QVERIFY2(pane()->statusStrip()->text().contains(QLatin1String("7")),
             qPrintable(pane()->statusStrip()->text()));
    QVERIFY(tabs()->tabs()->tabText(tabs()->tabs()->currentIndex()).contains("exited"));
    while (tabs()->tabs()->count() > 0)
        tabs()->closeTab(0);
}

QTEST_MAIN(TestTerminalPanel)
#include "tst_terminalpanel.moc"
