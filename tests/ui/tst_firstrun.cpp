// The first run of the app against a real lizard-local, through DesktopApp as main() builds it:
// an empty project says what to do next; New notebook makes an interpreter sandbox with the
// lifetime from Preferences (which also sets the server's warm pools), claims the interpreter
// template's warm copy and says so in its progress, and opens a notebook with what was typed
// meanwhile in its first cell and its kernel "starting Python…" until idle, which runs it;
// Cancel and failures leave no sandbox behind; Help ▸ About and Help ▸ User guide.
// With LIZARD_SCREENSHOT_DIR set (`make guide-shots`) it saves the user guide's pictures
// new-notebook-progress.png, preferences.png and about.png; the empty project is in
// tst_guideshots' first-start.png.
#include "app/desktopapp.h"
#include "app/keystore.h"
#include "app/settingsstore.h"
#include "client/coderun/runnerevents.h"
#include "client/lizardapi.h"
#include "models/sandboxtablemodel.h"
#include "notebook/notebookdocument.h"
#include "support/localserver.h"
#include "support/screenshot.h"
#include "support/wait.h"
#include "ui/aboutdialog.h"
#include "ui/bannerwidget.h"
#include "ui/documenttabs.h"
#include "ui/emptyprojectview.h"
#include "ui/guidewindow.h"
#include "ui/mainwindow.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookheader.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/outputview.h"
#include "ui/notebook/sandboxswitcher.h"
#include "ui/preferencesdialog.h"
#include "ui/progressstrip.h"
#include "ui/sandboxpanel.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QWindow>
#include <QtTest>

using namespace lizard;
using lizard::test::saveScreenshot;
using ui::notebook::NotebookController;
using ui::notebook::NotebookPage;

namespace {
constexpr int kCreateTimeoutMs = 180000; // an interpreter sandbox and its first kernel

QJsonArray sandboxesOf(const lizard::test::LocalServer& server)
{
    return QJsonDocument::fromJson(server.request("GET", "/api/sandboxes").body).array();
}
} // namespace

class TestFirstRun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void emptyProjectShowsWhatToDo();
    void emptyPanelGivesWayToTheTable();
    void preferencesSetTheNotebookLifetime();
    void newNotebookOpensARunningNotebook();
    void cancelLeavesNoSandbox();
    void failureShowsTheServersMessage();
    void aboutShowsTheVersions();
    void userGuideRendersMarkdownWithImages();
    void missingUserGuideSaysWhereItLooked();

private:
    ui::MainWindow* window() const { return m_app->window(); }
    NotebookController* notebooks() const { return m_app->notebooks(); }

    lizard::test::LocalServer m_server;
    QTemporaryDir m_tmp;
    std::unique_ptr<app::DesktopApp> m_app;
};

void TestFirstRun::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // recovery copies, logs: not the user's
    qRegisterMetaType<NotebookPage*>();       // for QSignalSpy
    // A warm interpreter copy for New notebook, as a desktop's lizard-local keeps one.
    QVERIFY2(m_server.start({"--pool-max", "2", "--pool-base", "0", "--pool-interpreter", "1",
                             "--pool-min-free-mb", "0"}),
             qPrintable(m_server.errorString()));
    // main()'s wiring, on this server's data directory (found through its server.json).
    auto* keys = new app::KeyStore(m_tmp.filePath("keys.json"), false, this);
    m_app = std::make_unique<app::DesktopApp>(
        std::make_unique<app::SettingsStore>(m_tmp.filePath("settings.ini")), keys,
        m_server.dataDir());
    m_app->start();
    window()->resize(1200, 760);
    QApplication::setActiveWindow(window());
    QVERIFY(QTest::qWaitForWindowActive(window()));
    QTRY_VERIFY_WITH_TIMEOUT(window()->api() != nullptr, 30000);
    QVERIFY(window()->connectionText().contains(m_server.url()));
}

void TestFirstRun::cleanupTestCase()
{
    if (m_app) {
        for (NotebookPage* page : notebooks()->pages())
            page->document()->setClean();
        m_app.reset();
    }
    // The fixture kills what is left when it stops the server.
    if (QTest::currentTestFailed())
        qWarning().noquote() << "lizard-local log (end):\n"
                             << QString::fromUtf8(m_server.log().right(4000));
}

void TestFirstRun::emptyProjectShowsWhatToDo()
{
    ui::SandboxPanel* panel = window()->sandboxPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->showsEmptyProject(), 20000);
    ui::EmptyProjectView* empty = panel->emptyView();
    QVERIFY(empty->isVisible());
    QVERIFY(!panel->view()->isVisible());
    QVERIFY(empty->newNotebookButton()->isVisible());
    QTRY_VERIFY(empty->newNotebookButton()->isEnabled());
    QCOMPARE(empty->newNotebookButton()->text(), QString("New notebook"));
    QVERIFY(empty->newSandboxButton()->isVisible());
    QVERIFY(empty->newSandboxButton()->isEnabled());
    QCOMPARE(empty->newSandboxButton()->text(), panel->newAction()->text());
    // How to reach this very server from the SDK: its URL and its key file.
    QVERIFY2(empty->sdkText().contains("LIZARD_API_URL=" + m_server.url()),
             qPrintable(empty->sdkText()));
    QVERIFY2(empty->sdkText().contains(m_server.keyFile()), qPrintable(empty->sdkText()));
}

void TestFirstRun::emptyPanelGivesWayToTheTable()
{
    ui::SandboxPanel* panel = window()->sandboxPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->showsEmptyProject(), 20000);
    // A sandbox made elsewhere (an agent with the SDK) shows up in the table at the next poll.
    const QString projectId = window()->sandboxModel()->projectId();
    const auto created = m_server.request(
        "POST", "/api/sandboxes",
        QJsonDocument(
            QJsonObject{{"projectId", projectId}, {"template", "base"}, {"timeoutMs", 600000}})
            .toJson());
    QVERIFY2(created.status == 200 || created.status == 201, created.body.constData());
    const QString id = QJsonDocument::fromJson(created.body).object().value("sandboxId").toString();
    QTRY_VERIFY_WITH_TIMEOUT(!panel->showsEmptyProject(), 10000);
    QVERIFY(panel->view()->isVisible());
    QTRY_VERIFY(window()->sandboxModel()->rowOf(id) >= 0);
    // Once it is gone, the panel is back.
    QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + id).status / 100, 2);
    QTRY_VERIFY_WITH_TIMEOUT(panel->showsEmptyProject(), 10000);
    QVERIFY(panel->emptyView()->isVisible());
}

void TestFirstRun::preferencesSetTheNotebookLifetime()
{
    QCOMPARE(notebooks()->newNotebookLifetime(), 60); // an hour unless set
    window()->preferencesAction()->trigger();
    ui::PreferencesDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = window()->findChild<ui::PreferencesDialog*>()) && dialog->isVisible());
    QCOMPARE(dialog->notebookLifetimeBox()->value(), 60);
    dialog->notebookLifetimeBox()->setValue(25);
    // Auto-extend: on for local sandboxes, off for cloud ones, unless set.
    QVERIFY(dialog->autoExtendLocalBox()->isChecked());
    QVERIFY(!dialog->autoExtendCloudBox()->isChecked());
    QTest::mouseClick(dialog->autoExtendCloudBox(), Qt::LeftButton);
    // The server's warm pools, read from it: the interpreter keeps one copy, base none.
    QTRY_VERIFY(dialog->warmPoolBox("interpreter") && dialog->warmPoolBox("base"));
    QCOMPARE(dialog->warmPoolBox("interpreter")->value(), 1);
    QCOMPARE(dialog->warmPoolBox("base")->value(), 0);
    dialog->warmPoolBox("base")->setValue(1);
    saveScreenshot(dialog, "preferences");
    QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTRY_COMPARE(QJsonDocument::fromJson(m_server.request("GET", "/api/templates/base").body)
                     .object()
                     .value("requestedPoolSize")
                     .toInt(),
                 1);
    QCOMPARE(notebooks()->newNotebookLifetime(), 25);
    QVERIFY(notebooks()->sandboxSwitcher()->autoExtendLocal());
    QVERIFY(notebooks()->sandboxSwitcher()->autoExtendCloud());
    QVERIFY(app::SettingsStore(m_tmp.filePath("settings.ini")).autoExtendCloud());
    QCOMPARE(app::SettingsStore(m_tmp.filePath("settings.ini")).notebookLifetimeMinutes(),
             25); // kept
}

void TestFirstRun::newNotebookOpensARunningNotebook()
{
    ui::SandboxPanel* panel = window()->sandboxPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->showsEmptyProject(), 20000);
    QCOMPARE(notebooks()->newNotebookAction()->shortcut(), QKeySequence("Ctrl+Shift+N"));
    QTRY_COMPARE_WITH_TIMEOUT(
        QJsonDocument::fromJson(m_server.request("GET", "/api/templates/interpreter").body)
            .object()
            .value("readyCount")
            .toInt(),
        1, 60000);
    QSignalSpy opened(notebooks(), &NotebookController::newNotebookOpened);
    QSignalSpy failed(notebooks(), &NotebookController::newNotebookFailed);
    window()->windowHandle()->requestActivate(); // the Preferences dialog had the focus
    QVERIFY(QTest::qWaitForWindowActive(window()));
    QTest::mouseClick(panel->emptyView()->newNotebookButton(), Qt::LeftButton);
    // Typed at once, while the sandbox is made: none of it is lost or taken as a command (A and
    // B insert cells in command mode, Return enters edit mode).
    QWidget* typedInto = QApplication::focusWidget() ? QApplication::focusWidget() : window();
    QTest::keyClicks(typedInto, "a, b = 1, 1");
    QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : window(),
                    Qt::Key_Return);
    QTest::keyClicks(QApplication::focusWidget() ? QApplication::focusWidget() : window(), "a+b");
    QPointer<ui::ProgressStrip> strip = window()->findChild<ui::ProgressStrip*>();
    QVERIFY(strip);
    QTRY_VERIFY(strip->isVisible());
    // From the warm pool the first stage takes a millisecond: the strip may be past it already.
    QVERIFY2(strip->text().contains("Creating sandbox…") ||
                 strip->text().contains("Starting Python…"),
             qPrintable(strip->text()));
    QVERIFY(strip->cancelButton()->isEnabled());
    saveScreenshot(window(), "new-notebook-progress");
    QVERIFY(lizard::test::waitUntil([&] { return !opened.isEmpty() || !failed.isEmpty(); },
                                    kCreateTimeoutMs));
    QVERIFY2(failed.isEmpty(),
             failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    // The warm copy's kernel was started by lizard-local: no "Starting Python…" stage, and the
    // status bar says where the sandbox came from.
    const QString status = window()->statusBar()->currentMessage();
    saveScreenshot(window(), "new-notebook-from-pool");
    const bool sawPool = status.contains("came from a warm pool, its Python already running");
    auto* page = opened.first().first().value<NotebookPage*>();
    QVERIFY(page);
    QCOMPARE(window()->documentTabs()->currentDocument(), page);
    QTRY_VERIFY(window()->findChild<ui::ProgressStrip*>() == nullptr);

    // The sandbox: interpreter, in the project, living the 25 minutes set in Preferences.
    const auto info = m_server.request("GET", "/api/sandboxes/" + page->sandboxId());
    QCOMPARE(info.status, 200);
    const QJsonObject sandbox = QJsonDocument::fromJson(info.body).object();
    QCOMPARE(sandbox.value("template").toString(), QString("interpreter"));
    QVERIFY(sandbox.value("fromPool").toBool());
    QVERIFY2(sawPool,
             qPrintable("the status bar did not say the sandbox came from a warm pool: " + status));
    QCOMPARE(sandbox.value("projectId").toString(), window()->sandboxModel()->projectId());
    const QDateTime endAt =
        QDateTime::fromString(sandbox.value("endAt").toString(), Qt::ISODateWithMs);
    const qint64 leftS = QDateTime::currentDateTimeUtc().secsTo(endAt);
    QVERIFY2(leftS > 22 * 60 && leftS <= 25 * 60, qPrintable(QString::number(leftS)));
    // It is in the table, which replaced the empty panel.
    QTRY_VERIFY(!panel->showsEmptyProject());
    QVERIFY(window()->sandboxModel()->rowOf(page->sandboxId()) >= 0);

    // It opens in edit mode, the caret in its first cell, with what was typed meanwhile.
    ui::notebook::CellListWidget* cells = page->cells();
    QCOMPARE(cells->mode(), ui::notebook::CellListWidget::Mode::Edit);
    ui::notebook::CellEditor* editor = cells->currentWidget()->editor();
    QTRY_VERIFY(editor->hasFocus());
    QCOMPARE(page->document()->cellCount(), 1); // no command-mode key inserted a cell
    QCOMPARE(editor->toPlainText(), QString("a, b = 1, 1\na+b"));
    QTest::keyClicks(QApplication::focusWidget(), "+0"); // and the keyboard is the cell's now
    QCOMPARE(editor->toPlainText(), QString("a, b = 1, 1\na+b+0"));
    // The kernel says it is starting (the warm copy's is up already: briefly), never "unknown".
    const QString state = page->header()->kernelText();
    QVERIFY2(state == "starting" || state == "idle", qPrintable(state));
    if (state == "starting") {
        QCOMPARE(page->header()->kernelLabelText(), QString("● starting Python…"));
        QVERIFY(page->header()->kernelProgressShown());
    }
    QTRY_COMPARE_WITH_TIMEOUT(page->header()->kernelText(), QString("idle"), 60000);
    QVERIFY(!page->header()->kernelProgressShown());
    // The kernel runs the first cell, and it is cell 1 (starting Python used no count).
    ui::notebook::CellWidget* cell = cells->currentWidget();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return, Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(cell->outputs()->count() == 1, 60000);
    QCOMPARE(cell->outputs()->view(0)->plainText(), QString("2"));
    QCOMPARE(cell->outputs()->promptText(0), QString("Out [1]:"));
}

void TestFirstRun::cancelLeavesNoSandbox()
{
    // A cold start (the interpreter pool off), whose Python start leaves time to cancel.
    QCOMPARE(m_server.request("PATCH", "/api/templates/interpreter", R"({"poolSize":0})").status,
             200);
    const int before = int(sandboxesOf(m_server).size());
    notebooks()->newNotebookAction()->trigger();
    ui::ProgressStrip* strip = window()->findChild<ui::ProgressStrip*>();
    QVERIFY(strip);
    QTest::mouseClick(strip->cancelButton(), Qt::LeftButton);
    QVERIFY(!strip->cancelButton()->isEnabled());
    QVERIFY2(strip->text().contains("Cancelling"), qPrintable(strip->text()));
    // The create in flight still makes its sandbox; the launcher kills it once it is named.
    QTRY_VERIFY_WITH_TIMEOUT(notebooks()->launcher() == nullptr, kCreateTimeoutMs);
    QTRY_VERIFY(window()->findChild<ui::ProgressStrip*>() == nullptr);
    QCOMPARE(int(sandboxesOf(m_server).size()), before);
    QCOMPARE(notebooks()->pages().size(), 1); // only the notebook of the test before
}

void TestFirstRun::failureShowsTheServersMessage()
{
    // A server whose host lacks a package of the interpreter template (a stand-in module).
    qputenv("LIZARD_TEST_INTERPRETER_MODULES", "lizard_no_such_module");
    lizard::test::LocalServer server;
    const bool started = server.start();
    qunsetenv("LIZARD_TEST_INTERPRETER_MODULES");
    QVERIFY2(started, qPrintable(server.errorString()));
    client::LizardApi api({server.url(), server.apiKey()});
    ui::MainWindow window;
    QTemporaryDir recovery;
    auto* controller = new NotebookController(
        window.workbench(), lizard::notebook::RecoveryStore(recovery.path()), &window);
    window.setBackend(&api, "Local — " + server.url(), {}, server.keyFile());
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.sandboxPanel()->showsEmptyProject(), 20000);
    QSignalSpy failed(controller, &NotebookController::newNotebookFailed);
    QTest::mouseClick(window.sandboxPanel()->emptyView()->newNotebookButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 60000);
    // The server's words, naming the package, in the banner; nothing opened, nothing left.
    const QString message = failed.first().first().toString();
    QVERIFY2(message.contains("TEMPLATE_UNAVAILABLE") &&
                 message.contains("python3-lizard-no-such-module"),
             qPrintable(message));
    QVERIFY(window.banner()->isVisible());
    QCOMPARE(window.banner()->text(), message);
    QVERIFY(controller->pages().isEmpty());
    QTRY_VERIFY(window.findChild<ui::ProgressStrip*>() == nullptr);
    QCOMPARE(sandboxesOf(server).size(), 0);
    QVERIFY(window.sandboxPanel()->showsEmptyProject());
}

void TestFirstRun::aboutShowsTheVersions()
{
    window()->aboutAction()->trigger();
    ui::AboutDialog* about = nullptr;
    QTRY_VERIFY((about = window()->findChild<ui::AboutDialog*>()) && about->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(about->serverAnswered(), 10000);
    QCOMPARE(about->appVersion(), QString(LIZARD_PROJECT_VERSION));
    QCOMPARE(about->serverText(),
             QString("lizard-local %1 at %2").arg(LIZARD_PROJECT_VERSION, m_server.url()));
    QVERIFY2(about->qtVersion().startsWith(qVersion()), qPrintable(about->qtVersion()));
    QVERIFY(!client::runnerVersion().isEmpty());
    QCOMPARE(about->runnerVersion(), client::runnerVersion());
    saveScreenshot(about, "about");
    about->close();
}

void TestFirstRun::userGuideRendersMarkdownWithImages()
{
    // A guide of our own: a heading, a paragraph and an image in guide/ beside it.
    QTemporaryDir docs;
    QDir(docs.path()).mkpath("guide");
    QImage picture(120, 60, QImage::Format_RGB32);
    picture.fill(QColor(220, 30, 30));
    QVERIFY(picture.save(docs.filePath("guide/red.png")));
    QFile md(docs.filePath("guide.md"));
    QVERIFY(md.open(QIODevice::WriteOnly));
    md.write("# Getting started\n\nClick **New notebook**.\n\n![A red box](guide/red.png)\n");
    md.close();
    window()->setGuideLocations({docs.filePath("nowhere/guide.md"), docs.filePath("guide.md")});
    window()->userGuideAction()->trigger();
    ui::GuideWindow* guide = window()->findChild<ui::GuideWindow*>();
    QVERIFY(guide);
    QTRY_VERIFY(guide->isVisible());
    QCOMPARE(guide->guidePath(), QFileInfo(docs.filePath("guide.md")).absoluteFilePath());
    const QString text = guide->browser()->toPlainText();
    QVERIFY2(text.contains("Getting started") && text.contains("Click New notebook."),
             qPrintable(text));
    // The image resolves relative to the file and is drawn.
    const QImage shown = guide->browser()->viewport()->grab().toImage();
    int red = 0;
    for (int y = 0; y < shown.height(); ++y)
        for (int x = 0; x < shown.width(); ++x)
            red += shown.pixelColor(x, y) == QColor(220, 30, 30) ? 1 : 0;
    QVERIFY2(red >= 120 * 60 / 2, qPrintable(QString::number(red)));
    guide->close();
}

void TestFirstRun::missingUserGuideSaysWhereItLooked()
{
    QTemporaryDir docs;
    const QStringList places{docs.filePath("a/guide.md"), docs.filePath("b/guide.md")};
    ui::GuideWindow guide(places);
    QVERIFY(guide.guidePath().isEmpty());
    const QString text = guide.browser()->toPlainText();
    QVERIFY2(text.contains("The user guide was not found"), qPrintable(text));
    for (const QString& place : places)
        QVERIFY2(text.contains(place), qPrintable(text));
    // The app's own list names the installed place and the source tree of this build.
    const QStringList defaults = ui::GuideWindow::defaultLocations();
    QVERIFY(defaults.contains("/usr/share/doc/lizard-desktop/guide.md"));
    QVERIFY(defaults.contains(QString(LIZARD_SOURCE_DIR "/docs/guide.md")));
}

QTEST_MAIN(TestFirstRun)
#include "tst_firstrun.moc"
