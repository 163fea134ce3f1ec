// A notebook outlives its sandbox, against a real lizard-local: a sandbox that expires shows the
// "has ended" banner (a run says the same), "Run on a new sandbox" then Run all carries on with
// the sources and outputs kept; "Attach to sandbox…" moves to another running sandbox; with
// auto-extend a short-lived sandbox outlives its deadline while the notebook is in use; a paused
// sandbox is resumed when a cell runs. No sandbox is left behind.
#include "client/lizardapi.h"
#include "models/sandboxtablemodel.h"
#include "models/serveraccount.h"
#include "notebook/runqueue.h"
#include "notebook/sandboxwatch.h"
#include "support/apiwait.h"
#include "support/localserver.h"
#include "support/screenshot.h"
#include "support/wait.h"
#include "ui/mainwindow.h"
#include "ui/notebook/attachsandboxdialog.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookheader.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/outputview.h"
#include "ui/notebook/sandboxswitcher.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QMenu>
#include <QPushButton>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

using namespace lizard;
using namespace lizard::ui::notebook;
using lizard::notebook::CellStatus;
using lizard::notebook::SandboxWatch;

namespace {
constexpr int kSandboxRunTimeoutMs = 180000; // a first run starts a kernel in a fresh sandbox
}

class TestNotebookSandbox : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void endedSandboxThenRunOnNew();
    void attachToRunningSandbox();
    void autoExtendKeepsSandboxAlive();
    void pausedSandboxResumesOnRun();

private:
    QString createSandbox(int timeoutMs,
                          const QString& templateName = QStringLiteral("interpreter"))
    {
        client::CreateSandboxRequest req;
        req.projectId = m_projectId;
        req.templateName = templateName;
        req.timeoutMs = timeoutMs;
        QString why;
        const QString id = lizard::test::startSandbox(*m_api, req, &why);
        if (id.isEmpty())
            qWarning().noquote() << "create failed:" << why;
        else
            m_created << id;
        return id;
    }
    QString status(const QString& id)
    {
        const auto info = lizard::test::waitFor<client::SandboxInfo>(
            [&](QObject* ctx, auto done) { return m_api->getSandbox(id, ctx, done); });
        if (!info)
            return QStringLiteral("no answer");
        if (!info->ok())
            return info->error().kind == client::ApiError::Kind::NotFound
                       ? QStringLiteral("not found")
                       : lizard::test::describe(info->error());
        return info->value().status;
    }
    // Runs cell `index` with the toolbar's Run, as a user does, and waits for it to end.
    lizard::notebook::Cell* run(NotebookPage* page, int index)
    {
        page->cells()->setCurrentIndex(index);
        page->toolBar()->findChild<QAction*>(QStringLiteral("runCell"))->trigger();
        return waitDone(page, index);
    }
    lizard::notebook::Cell* waitDone(NotebookPage* page, int index)
    {
        lizard::notebook::Cell* cell = page->document()->cell(index);
        (void)lizard::test::waitUntil(
            [cell] {
                const CellStatus s = cell->status();
                return s == CellStatus::Done || s == CellStatus::Error ||
                       s == CellStatus::Interrupted;
            },
            kSandboxRunTimeoutMs);
        return cell;
    }
    QString shown(NotebookPage* page, int index)
    {
        CellWidget* widget = page->cells()->cellWidget(index);
        QStringList parts;
        for (int i = 0; i < widget->outputs()->count(); ++i)
            parts << widget->outputs()->view(i)->plainText();
        return parts.join(u'\n');
    }

    lizard::test::LocalServer m_server;
    std::unique_ptr<client::LizardApi> m_api;
    std::unique_ptr<ui::MainWindow> m_window;
    NotebookController* m_controller = nullptr;
    QTemporaryDir m_recovery;
    QString m_projectId;
    QStringList m_created;
};

void TestNotebookSandbox::initTestCase()
{
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    m_api =
        std::make_unique<client::LizardApi>(client::Endpoint{m_server.url(), m_server.apiKey()});
    const auto projects = lizard::test::waitFor<QList<client::Project>>(
        [this](QObject* ctx, auto done) { return m_api->listProjects(ctx, done); });
    QVERIFY(projects && projects->ok() && !projects->value().isEmpty());
    m_projectId = projects->value().first().id;

    m_window = std::make_unique<ui::MainWindow>();
    m_controller = new NotebookController(
        m_window->workbench(), lizard::notebook::RecoveryStore(m_recovery.path()), m_window.get());
    m_controller->setNewNotebookLifetime(10);
    m_window->setBackend(m_api.get(), "Local — " + m_server.url(), {});
    m_window->resize(1200, 800);
    m_window->show();
    QApplication::setActiveWindow(m_window.get());
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    // The sandboxes each test makes through the notebook are the suite's to remove too.
    connect(m_controller->sandboxSwitcher(), &SandboxSwitcher::attached, this,
            [this](NotebookPage*, const QString& id) {
                if (!m_created.contains(id))
                    m_created << id;
            });
    QVERIFY(models::isLocalServer(m_api.get()));
    QTRY_VERIFY_WITH_TIMEOUT(
        m_window->sandboxModel() && !m_window->sandboxModel()->projectId().isEmpty(), 20000);
}

void TestNotebookSandbox::cleanupTestCase()
{
    if (m_window) {
        for (NotebookPage* page : m_controller->pages())
            page->document()->setClean();
        m_window.reset();
    }
    if (!m_api)
        return;
    for (const QString& id : m_created) {
        if (status(id) != u"not found") // the expired ones are gone already
            lizard::test::killSandbox(*m_api, id);
    }
    // Nothing of the suite's is left running on the server.
    const auto listed = lizard::test::waitFor<QList<client::SandboxInfo>>(
        [this](QObject* ctx, auto done) { return m_api->listSandboxes(m_projectId, ctx, done); });
    QVERIFY(listed && listed->ok());
    QStringList alive;
    for (const client::SandboxInfo& info : listed->value()) {
        if (info.status == u"running" || info.status == u"paused")
            alive << info.sandboxId;
    }
    QVERIFY2(alive.isEmpty(), qPrintable(alive.join(u' ')));
}

void TestNotebookSandbox::endedSandboxThenRunOnNew()
{
    m_controller->sandboxSwitcher()->setAutoExtendPolicy(false, false);
    const QString first = createSandbox(8000);
    QVERIFY(!first.isEmpty());
    NotebookPage* page = m_controller->openNotebook(first);
    QVERIFY(page);
    NotebookHeader* header = page->header();
    QVERIFY(header->keptAliveText().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(header->timeLeftText().startsWith("ends in 0:0"), 10000);
    QVERIFY(header->timeLeftIsAmber()); // under a minute left
    // What the notebook holds: sources, and an output from an earlier run (as a file brings).
    page->document()->cell(0)->setSource(QStringLiteral("x = 40 + 2\nprint('x is', x)"));
    page->document()->insertCell(1, lizard::notebook::CellType::Code);
    page->document()->cell(1)->setSource(
        QStringLiteral("import socket; print('host', socket.gethostname())"));
    page->document()->cell(1)->appendOutput(
        lizard::notebook::StreamOutput{"stdout", "from an earlier run\n"});

    // The sandbox expires: the header says so, with the two ways on, not the raw error.
    QTRY_VERIFY_WITH_TIMEOUT(header->bannerShown(), 40000);
    QCOMPARE(
        header->bannerText(),
        QStringLiteral("This notebook's sandbox %1 has ended. Your cells and outputs are kept.")
            .arg(first));
    QVERIFY(header->bannerAttachButton()->isVisible());
    QCOMPARE(header->bannerAttachButton()->text(), QStringLiteral("Attach to sandbox…"));
    QVERIFY(header->bannerRunOnNewButton()->isVisible());
    QCOMPARE(header->bannerRunOnNewButton()->text(), QStringLiteral("Run on a new sandbox"));
    QVERIFY(header->bannerRunAllBox()->isVisible());
    QCOMPARE(header->timeLeftText(), QStringLiteral("ended"));
    QVERIFY2(!header->noticeText().contains("Listing contexts failed"),
             qPrintable(header->noticeText()));
    QVERIFY(status(first) == u"not found" || status(first) == u"stopped");
    lizard::test::saveScreenshot(m_window.get(), QStringLiteral("notebook-sandbox-ended"));

    // Running a cell says the same, and keeps what the cell had.
    lizard::notebook::Cell* cell = run(page, 0);
    QCOMPARE(cell->status(), CellStatus::Error);
    QVERIFY2(
        shown(page, 0).contains(QStringLiteral("This notebook's sandbox %1 has ended").arg(first)),
        qPrintable(shown(page, 0)));
    QCOMPARE(page->document()->cell(0)->source(), QStringLiteral("x = 40 + 2\nprint('x is', x)"));
    QVERIFY(shown(page, 1).contains("from an earlier run")); // the other cells' outputs stay

    // Run on a new sandbox, then Run all.
    QTest::mouseClick(header->bannerRunAllBox(), Qt::LeftButton);
    QVERIFY(page->thenRunAllAction()->isChecked());
    QSignalSpy attached(m_controller->sandboxSwitcher(), &SandboxSwitcher::attached);
    QTest::mouseClick(header->bannerRunOnNewButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(attached.count(), 1, kSandboxRunTimeoutMs);
    const QString second = page->sandboxId();
    QVERIFY(second != first);
    QCOMPARE(status(second), QStringLiteral("running"));
    QTRY_VERIFY(!header->bannerShown());
    QVERIFY(header->contextText().contains(second));
    waitDone(page, 0);
    waitDone(page, 1);
    QTRY_VERIFY_WITH_TIMEOUT(page->document()->cell(1)->status() == CellStatus::Done,
                             kSandboxRunTimeoutMs);
    QVERIFY2(page->document()->cell(0)->status() == CellStatus::Done, qPrintable(shown(page, 0)));
    QVERIFY2(shown(page, 0).contains("x is 42"), qPrintable(shown(page, 0)));
    QVERIFY2(shown(page, 1).contains("host "), qPrintable(shown(page, 1)));
    QCOMPARE(page->document()->cell(0)->source(), QStringLiteral("x = 40 + 2\nprint('x is', x)"));
    QVERIFY(page->document()->cell(1)->source().contains("gethostname"));
    // The new sandbox came from the notebook's template, which the metadata now records.
    const nlohmann::json meta = page->document()->metadata()["lizard"];
    QCOMPARE(QString::fromStdString(meta.value("template", std::string())),
             QStringLiteral("interpreter"));
    QCOMPARE(QString::fromStdString(meta.value("sandboxId", std::string())), second);
    QTRY_VERIFY_WITH_TIMEOUT(header->timeLeftText().startsWith("ends in 9:") ||
                                 header->timeLeftText().startsWith("ends in 10:"),
                             10000);
}

void TestNotebookSandbox::attachToRunningSandbox()
{
    const QString home = createSandbox(600000, QStringLiteral("base"));
    const QString other = createSandbox(600000);
    QVERIFY(!home.isEmpty() && !other.isEmpty());
    // A mark only the other sandbox has.
    const QByteArray mark = "written into " + other.toUtf8();
    const auto wrote = lizard::test::waitFor<client::Unit>([&](QObject* ctx, auto done) {
        return m_api->writeFile(other, QStringLiteral("/tmp/attach-mark.txt"), mark, ctx, done);
    });
    QVERIFY(wrote && wrote->ok());

    NotebookPage* page = m_controller->openNotebook(home);
    QVERIFY(page);
    QTRY_COMPARE_WITH_TIMEOUT(page->session()->sandboxWatch()->state(),
                              SandboxWatch::State::Running, 15000);
    QVERIFY(!page->header()->bannerShown());
    // The header's Sandbox menu offers it; so does the Notebook menu.
    QVERIFY(page->header()->sandboxMenuButton()->menu()->actions().contains(page->attachAction()));
    QVERIFY(m_window->findChild<QAction*>(QStringLiteral("menuAttachToSandbox")));
    page->attachAction()->trigger();
    AttachSandboxDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = m_window->findChild<AttachSandboxDialog*>()) != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->list()->findItems(other, Qt::MatchExactly).isEmpty(), 15000);
    QVERIFY(dialog->list()->findItems(home, Qt::MatchExactly).isEmpty()); // not its own
    QTreeWidgetItem* item = dialog->list()->findItems(other, Qt::MatchExactly).first();
    QCOMPARE(item->text(AttachSandboxDialog::TemplateColumn), QStringLiteral("interpreter"));
    QCOMPARE(item->text(AttachSandboxDialog::StateColumn), QStringLiteral("running"));
    QVERIFY(item->text(AttachSandboxDialog::AgeColumn).endsWith(" s") ||
            item->text(AttachSandboxDialog::AgeColumn).endsWith(" min"));
    QVERIFY(item->text(AttachSandboxDialog::EndsColumn).startsWith("9:") ||
            item->text(AttachSandboxDialog::EndsColumn).startsWith("8:"));
    QVERIFY(!dialog->buttons()->button(QDialogButtonBox::Ok)->isEnabled());
    dialog->list()->setCurrentItem(item);
    QVERIFY(dialog->buttons()->button(QDialogButtonBox::Ok)->isEnabled());
    QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTRY_COMPARE(page->sandboxId(), other);
    QVERIFY(page->header()->contextText().contains(other));

    page->document()->cell(0)->setSource(
        QStringLiteral("print(open('/tmp/attach-mark.txt').read())"));
    lizard::notebook::Cell* cell = run(page, 0);
    QVERIFY2(cell->status() == CellStatus::Done, qPrintable(shown(page, 0)));
    QVERIFY2(shown(page, 0).contains(QString::fromUtf8(mark)), qPrintable(shown(page, 0)));
}

void TestNotebookSandbox::autoExtendKeepsSandboxAlive()
{
    m_controller->sandboxSwitcher()->setAutoExtendPolicy(true, false);
    const QString id = createSandbox(8000, QStringLiteral("base"));
    QVERIFY(!id.isEmpty());
    QElapsedTimer since;
    since.start();
    NotebookPage* page = m_controller->openNotebook(id);
    QVERIFY(page);
    QTRY_VERIFY_WITH_TIMEOUT(page->header()->timeLeftText().startsWith("ends in 0:0"), 10000);
    QCOMPARE(page->header()->keptAliveText(), QStringLiteral("· kept alive while you work"));
    // In use: the user types in a cell now and then.
    for (int i = 0; i < 6; ++i) {
        page->document()->cell(0)->setSource(QStringLiteral("# editing %1").arg(i));
        QTest::qWait(4000);
    }
    QVERIFY(since.elapsed() > 20000); // well past its 8 s deadline
    QCOMPARE(status(id), QStringLiteral("running"));
    QVERIFY(page->session()->sandboxWatch()->extensions() >= 2);
    qInfo("auto-extend: an 8 s sandbox still running after %lld ms, extended %d times",
          since.elapsed(), page->session()->sandboxWatch()->extensions());
    QVERIFY(!page->header()->bannerShown());
    QVERIFY2(page->header()->timeLeftText().startsWith("ends in 0:0"),
             qPrintable(page->header()->timeLeftText()));
    m_controller->sandboxSwitcher()->setAutoExtendPolicy(false, false);
    QVERIFY(page->header()->keptAliveText().isEmpty());
}

void TestNotebookSandbox::pausedSandboxResumesOnRun()
{
    const QString id = createSandbox(600000);
    QVERIFY(!id.isEmpty());
    NotebookPage* page = m_controller->openNotebook(id);
    QVERIFY(page);
    page->document()->cell(0)->setSource(QStringLiteral("print('ran after resume')"));
    const auto paused = lizard::test::waitFor<client::Unit>(
        [&](QObject* ctx, auto done) { return m_api->pauseSandbox(id, ctx, done); });
    QVERIFY2(paused && paused->ok(), !paused ? "no answer"
                                     : paused->ok()
                                         ? ""
                                         : qPrintable(lizard::test::describe(paused->error())));
    QTRY_COMPARE_WITH_TIMEOUT(status(id), QStringLiteral("paused"), 30000);
    // The header says so by its next look at the sandbox.
    QTRY_COMPARE_WITH_TIMEOUT(page->header()->timeLeftText(), QStringLiteral("paused"), 15000);

    QSignalSpy resuming(page->session()->sandboxWatch(), &SandboxWatch::resuming);
    QString noticeWhileResuming; // later notices (a fresh kernel's) may replace it
    connect(page->session()->sandboxWatch(), &SandboxWatch::resuming, this,
            [&] { noticeWhileResuming = page->header()->noticeText(); });
    lizard::notebook::Cell* cell = run(page, 0);
    QCOMPARE(resuming.count(), 1);
    QCOMPARE(noticeWhileResuming, QStringLiteral("Sandbox was paused; resuming…"));
    QVERIFY2(cell->status() == CellStatus::Done, qPrintable(shown(page, 0)));
    QVERIFY2(shown(page, 0).contains("ran after resume"), qPrintable(shown(page, 0)));
    QCOMPARE(status(id), QStringLiteral("running"));
}

QTEST_MAIN(TestNotebookSandbox)
#include "tst_notebooksandbox.moc"
