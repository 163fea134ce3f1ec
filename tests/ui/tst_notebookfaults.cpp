// Faults a notebook user meets, injected for real against a lizard-local and an `interpreter`
// sandbox, checked by what the window shows:
// - the kernel of one context is killed (kill -9 through the exec API) while a cell sleeps: the
//   cell says "Kernel died" and that variables are lost, the kernel shows dead, ↻ Restart gives a
//   working kernel, and another context's kernel keeps its variables;
// - lizard-local is killed (SIGKILL) while a console command and a cell run: the banner says so
//   at once, both say they may or may not have finished, and once lizard-local is started again
//   on its data directory and port the app is connected again by itself and the cell runs.
#include "client/lizardapi.h"
#include "support/apiwait.h"
#include "support/localserver.h"
#include "support/screenshot.h"
#include "ui/bannerwidget.h"
#include "ui/consolearea.h"
#include "ui/consoleview.h"
#include "ui/consolewidget.h"
#include "ui/mainwindow.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/contextselector.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookheader.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/outputview.h"
#include "ui/sandboxpanel.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest>

using namespace lizard;
using namespace lizard::ui::notebook;
using lizard::notebook::CellStatus;
using lizard::notebook::ContextChoice;
using lizard::notebook::NotebookKernel;

namespace {
constexpr int kFaultRunTimeoutMs = 180000; // the first run starts a kernel in a fresh sandbox
}

class TestNotebookFaults : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void kernelKilledDuringCell();
    void serverKilledDuringConsoleAndCell();

private:
    void type(NotebookPage* page, const QStringList& lines)
    {
        CellListWidget* list = page->cells();
        list->enterEditMode();
        CellEditor* editor = list->currentWidget()->editor();
        QTRY_VERIFY(editor->hasFocus());
        for (int i = 0; i < lines.size(); ++i) {
            if (i > 0) {
                QTest::keyClick(editor, Qt::Key_Return);
                QTextCursor c = editor->textCursor(); // drop the auto-indent
                c.movePosition(QTextCursor::StartOfBlock, QTextCursor::KeepAnchor);
                c.removeSelectedText();
            }
            QTest::keyClicks(editor, lines[i]);
        }
    }
    // Shift+Enter on the current cell; returns that cell without waiting for it.
    CellWidget* start(NotebookPage* page)
    {
        CellWidget* cell = page->cells()->currentWidget();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return, Qt::ShiftModifier);
        return cell;
    }
    CellWidget* run(NotebookPage* page)
    {
        CellWidget* cell = start(page);
        const auto ended = [cell] {
            const CellStatus s = cell->cell()->status();
            return s == CellStatus::Done || s == CellStatus::Error || s == CellStatus::Interrupted;
        };
        (void)lizard::test::waitUntil(ended, kFaultRunTimeoutMs); // callers check the status
        return cell;
    }
    static QString describe(CellWidget* cell)
    {
        QStringList parts;
        for (int i = 0; i < cell->outputs()->count(); ++i)
            parts << cell->outputs()->view(i)->plainText();
        return parts.join("\n---\n");
    }
    static QWidget* lastView(CellWidget* cell)
    {
        const int n = cell->outputs()->count();
        return n > 0 ? static_cast<QWidget*>(cell->outputs()->view(n - 1)) : cell;
    }
    static QString lastOutput(CellWidget* cell)
    {
        const int n = cell->outputs()->count();
        return n > 0 ? cell->outputs()->view(n - 1)->plainText().trimmed() : QString();
    }
    ContextChoice newPythonContext(NotebookPage* page)
    {
        QSignalSpy changed(page->session()->kernel(), &NotebookKernel::contextChanged);
        ContextSelector* selector = page->contextSelector();
        selector->choose(selector->findData(QStringLiteral("new:python")));
        (void)lizard::test::waitUntil([&] { return changed.count() > 0; }, 60000);
        return page->session()->kernel()->context();
    }
    bool selectContext(NotebookPage* page, const QString& id)
    {
        ContextSelector* selector = page->contextSelector();
        selector->refresh();
        const auto index = [selector, id] {
            for (int i = 0; i < selector->count(); ++i)
                if (selector->itemData(i).toStringList().value(0) == id)
                    return i;
            return -1;
        };
        if (!lizard::test::waitUntil([&] { return index() >= 0; }, 30000))
            return false;
        selector->choose(index());
        return page->session()->kernel()->context().id == id;
    }

    lizard::test::LocalServer m_server;
    std::unique_ptr<client::LizardApi> m_api;
    std::unique_ptr<ui::MainWindow> m_window;
    NotebookController* m_controller = nullptr;
    QTemporaryDir m_recovery;
    QString m_sandboxId;
    qint64 m_initPid = 0; // the sandbox's PID 1 on the host, to check it is gone at the end
};

void TestNotebookFaults::initTestCase()
{
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    m_api =
        std::make_unique<client::LizardApi>(client::Endpoint{m_server.url(), m_server.apiKey()});
    const auto projects = lizard::test::waitFor<QList<client::Project>>(
        [this](QObject* ctx, auto done) { return m_api->listProjects(ctx, done); });
    QVERIFY(projects && projects->ok() && !projects->value().isEmpty());
    client::CreateSandboxRequest req;
    req.projectId = projects->value().first().id;
    req.templateName = QStringLiteral("interpreter");
    req.timeoutMs = 1800000;
    QString why;
    m_sandboxId = lizard::test::startSandbox(*m_api, req, &why);
    QVERIFY2(!m_sandboxId.isEmpty(), qPrintable(why));
    QFile initPid(m_server.dataDir() + "/sandboxes/" + m_sandboxId + "/init.pid");
    if (initPid.open(QIODevice::ReadOnly))
        m_initPid =
            QString::fromLatin1(initPid.readAll()).simplified().section(' ', 0, 0).toLongLong();

    m_window = std::make_unique<ui::MainWindow>();
    m_controller = new NotebookController(
        m_window->workbench(), lizard::notebook::RecoveryStore(m_recovery.path()), m_window.get());
    m_window->setBackend(m_api.get(), "Local — " + m_server.url(), {});
    m_window->resize(1200, 900);
    m_window->show();
    QApplication::setActiveWindow(m_window.get());
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void TestNotebookFaults::cleanupTestCase()
{
    if (m_window) {
        for (NotebookPage* page : m_controller->pages())
            page->document()->setClean();
        m_window.reset(); // closes the runner's stream
    }
    if (!m_sandboxId.isEmpty() && m_api) {
        const auto kill = [this] {
            return lizard::test::waitFor<client::Unit>(
                [this](QObject* ctx, auto done) {
                    return m_api->killSandbox(m_sandboxId, ctx, done);
                },
                30000);
        };
        const auto killed = kill();
        // A test that failed between crash and start left the server down: start it to kill.
        if ((!killed || !killed->ok()) && m_server.start())
            kill();
    }
    if (QTest::currentTestFailed())
        qWarning().noquote() << "lizard-local log (end):\n"
                             << QString::fromUtf8(m_server.log().right(4000));
    m_server.stop();
    // The sandbox (its agent, kernels and commands) is gone with its PID 1.
    if (m_initPid > 0)
        QVERIFY2(lizard::test::waitUntil(
                     [this] { return !QFile::exists(QStringLiteral("/proc/%1").arg(m_initPid)); },
                     30000),
                 "the sandbox's init process is still there");
}

void TestNotebookFaults::kernelKilledDuringCell()
{
    NotebookPage* page = m_controller->openNotebook(m_sandboxId);
    QVERIFY(page);
    // Context A keeps a variable; context B's kernel is the one that dies.
    const ContextChoice a = newPythonContext(page);
    QVERIFY2(a.id.startsWith("ctx-"), qPrintable(a.id));
    type(page, {"kept = 41"});
    CellWidget* set = run(page);
    QVERIFY2(set->cell()->status() == CellStatus::Done, qPrintable(describe(set)));

    const ContextChoice b = newPythonContext(page);
    QVERIFY2(b.id.startsWith("ctx-") && b.id != a.id, qPrintable(b.id));
    type(page, {"doomed = 1"});
    QCOMPARE(run(page)->cell()->status(), CellStatus::Done);
    type(page, {"import time", "print('sleeping', flush=True)", "time.sleep(30)"});
    CellWidget* sleeping = start(page);
    QVERIFY2(
        lizard::test::waitUntil([&] { return describe(sleeping).contains("sleeping"); }, 60000),
        qPrintable(describe(sleeping)));

    // kill -9 of B's ipykernel inside the sandbox, the way an OOM killer or a user would.
    const auto killed = lizard::test::waitFor<client::ExecResult>([&](QObject* ctx, auto done) {
        return m_api->exec(
            m_sandboxId,
            QStringLiteral("kill -9 \"$(cat /tmp/.lizard-code/%1/kernel.pid)\"").arg(b.id), {}, ctx,
            done);
    });
    QVERIFY2(killed && killed->ok() && killed->value().exitCode == 0,
             killed && killed->ok() ? qPrintable(killed->value().stderrText) : "exec failed");

    QVERIFY2(lizard::test::waitUntil(
                 [&] { return sleeping->cell()->status() == CellStatus::Error; }, 30000),
             qPrintable(describe(sleeping)));
    const QString said = describe(sleeping);
    QVERIFY2(said.contains("Kernel died (killed by SIGKILL") &&
                 said.contains("variables of this context are lost") && said.contains("Restart"),
             qPrintable(said));
    QTRY_COMPARE_WITH_TIMEOUT(page->header()->kernelText(), QString("dead"), 10000);
    QTRY_VERIFY(lastView(sleeping)->isVisible()); // on screen, not only in the model
    lizard::test::saveScreenshot(m_window.get(), QStringLiteral("fault-kernel-died"));

    // The existing Restart action gives a fresh kernel; the next cell runs on it.
    QAction* restart = nullptr;
    for (QAction* action : page->toolBar()->actions())
        restart = action->objectName() == "restart" ? action : restart;
    QVERIFY(restart && restart->isEnabled());
    restart->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(page->header()->noticeText().contains("Restarted"), 120000);
    QVERIFY2(!page->header()->noticeText().contains("failed"),
             qPrintable(page->header()->noticeText()));
    type(page, {"print('fresh', 'doomed' in dir())"});
    CellWidget* fresh = run(page);
    QVERIFY2(fresh->cell()->status() == CellStatus::Done, qPrintable(describe(fresh)));
    QCOMPARE(lastOutput(fresh), QString("fresh False"));
    QTRY_COMPARE_WITH_TIMEOUT(page->header()->kernelText(), QString("idle"), 10000);

    // Context A never noticed.
    QVERIFY(selectContext(page, a.id));
    type(page, {"kept + 1"});
    CellWidget* untouched = run(page);
    QVERIFY2(untouched->cell()->status() == CellStatus::Done, qPrintable(describe(untouched)));
    QCOMPARE(lastOutput(untouched), QString("42"));
    page->document()->setClean();
}

void TestNotebookFaults::serverKilledDuringConsoleAndCell()
{
    NotebookPage* page = m_controller->openNotebook(m_sandboxId);
    QVERIFY(page);
    type(page, {"survivor = 7"});
    QCOMPARE(run(page)->cell()->status(), CellStatus::Done);
    type(page, {"import time", "print('working', flush=True)", "time.sleep(30)"});
    CellWidget* cut = start(page);
    QVERIFY2(lizard::test::waitUntil([&] { return describe(cut).contains("working"); }, 60000),
             qPrintable(describe(cut)));

    m_window->sandboxPanel()->selectSandbox(m_sandboxId);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->consoleArea()->consoleFor(m_sandboxId), 10000);
    ui::ConsoleWidget* console = m_window->consoleArea()->consoleFor(m_sandboxId);
    console->runCommand(QStringLiteral("echo started; sleep 60"));
    QTRY_VERIFY_WITH_TIMEOUT(console->view()->toPlainText().contains("\nstarted"), 30000); // runs

    QVERIFY(m_server.crash());
    QElapsedTimer clock;
    clock.start();
    ui::BannerWidget* banner = m_window->banner();
    const auto bannerSaysLost = [banner] {
        return banner->isVisible() && banner->kind() == ui::BannerWidget::Kind::Error &&
               banner->text().startsWith("Lost the connection to lizard-local");
    };
    // At once: the broken streams say it, no poll has to time out first.
    QVERIFY2(lizard::test::waitUntil(bannerSaysLost, 1500), qPrintable(banner->text()));
    qInfo("banner after %lld ms: %s", clock.elapsed(), qPrintable(banner->text()));
    QVERIFY2(
        lizard::test::waitUntil([&] { return cut->cell()->status() == CellStatus::Error; }, 1500),
        qPrintable(describe(cut)));
    QVERIFY2(describe(cut).contains(
                 "The connection to lizard-local was lost while this cell ran; it may or may "
                 "not have finished"),
             qPrintable(describe(cut)));
    const QString consoleLost = QStringLiteral(
        "[connection to lizard-local lost: the command may or may not have finished]");
    QVERIFY2(
        lizard::test::waitUntil(
            [&] { return console->view()->toPlainText().trimmed().endsWith(consoleLost); }, 1500),
        qPrintable(console->view()->toPlainText().right(400)));
    QCOMPARE(console->statusText(), QString("connection lost"));
    QVERIFY(bannerSaysLost()); // later failures (the poll) did not replace it
    QVERIFY2(m_window->connectionText().startsWith("Connection lost: reconnecting"),
             qPrintable(m_window->connectionText()));
    QTRY_VERIFY(lastView(cut)->isVisible());
    lizard::test::saveScreenshot(m_window.get(), QStringLiteral("fault-server-lost"));

    // lizard-local again, on its data directory and port: the app finds it by itself.
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(banner->text() == QString("Connected to lizard-local again."), 10000);
    QCOMPARE(banner->kind(), ui::BannerWidget::Kind::Note);
    QVERIFY(m_window->connectionText().startsWith("Connected: "));
    // The adopted sandbox runs cells again, and its kernel kept running through the outage.
    type(page, {"print('back', survivor)"});
    CellWidget* back = run(page);
    QVERIFY2(back->cell()->status() == CellStatus::Done, qPrintable(describe(back)));
    QCOMPARE(lastOutput(back), QString("back 7"));
    console->runCommand(QStringLiteral("echo again"));
    QTRY_COMPARE_WITH_TIMEOUT(console->statusText(), QString("exit 0"), 30000);
    QVERIFY(console->view()->toPlainText().endsWith("again\n[exit 0]"));
    page->document()->setClean();
}

QTEST_MAIN(TestNotebookFaults)
#include "tst_notebookfaults.moc"
