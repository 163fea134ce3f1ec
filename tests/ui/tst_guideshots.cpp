// The user guide (docs/guide.md), task by task, in the real app (DesktopApp: the window, its
// menus and the notebook controller as `make run` wires them) against a real lizard-local.
// Each step checks what the guide says the user sees; with LIZARD_SCREENSHOT_DIR set (`make
// guide-shots`) it also saves that picture as docs/guide/<name>.png.
#include "app/desktopapp.h"
#include "app/settingsstore.h"
#include "guideapp.h"
#include "models/files/sandboxfilemodel.h"
#include "models/files/transferjobsmodel.h"
#include "models/portlistmodel.h"
#include "models/sandboxrow.h"
#include "models/sandboxtablemodel.h"
#include "models/snapshotlistmodel.h"
#include "notebook/cell.h"
#include "notebook/notebookdocument.h"
#include "support/screenshot.h"
#include "ui/bannerwidget.h"
#include "ui/connectionsdialog.h"
#include "ui/consolearea.h"
#include "ui/consolewidget.h"
#include "ui/createsandboxdialog.h"
#include "ui/documenttabs.h"
#include "ui/emptyprojectview.h"
#include "ui/files/fileeditorpage.h"
#include "ui/files/filespanel.h"
#include "ui/forkdialog.h"
#include "ui/mainwindow.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/imageoutputview.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookheader.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/richoutputview.h"
#include "ui/ports/portspanel.h"
#include "ui/ports/previewengine.h"
#include "ui/ports/previewpage.h"
#include "ui/projectpanel.h"
#include "ui/projecttabs.h"
#include "ui/sandboxpanel.h"
#include "ui/snapshotsview.h"
#include "uidriver.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <optional>

using namespace lizard;
using lizard::notebook::CellStatus;
using lizard::test::saveScreenshot;

namespace {
constexpr int kSlowMs = 180000; // a fresh sandbox's first kernel start, a fork of an interpreter
const QString kPageTitle = QStringLiteral("Hello from a sandbox");
} // namespace

class TestGuideShots : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void firstStart();
    void notebookWithAChart();
    void files();
    void previewAWebServer();
    void pauseSnapshotFork();
    void connectToTheCloud();

private:
    ui::MainWindow* window() const { return m_guide.window(); }
    ui::SandboxPanel* sandboxes() const { return window()->sandboxPanel(); }
    QString statusShown(const QString& id) const { return m_guide.statusShown(id); }
    void showHome(QWidget* tool) { m_guide.showHome(m_sandboxId, tool); }
    QString runInConsole(const QString& command, bool wait = true)
    {
        return m_guide.runInConsole(command, wait);
    }
    bool noErrorShown() const { return m_guide.noErrorShown(); }

    lizard::test::GuideApp m_guide;
    QString m_sandboxId;
    QTemporaryDir m_tmp; // the user's own files, to upload and download
};

void TestGuideShots::initTestCase()
{
    const QString failure = m_guide.start();
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

void TestGuideShots::cleanup()
{
    if (QTest::currentTestFailed() && window()->banner()->isVisible())
        qWarning().noquote() << "the banner says:" << window()->banner()->text();
}

void TestGuideShots::cleanupTestCase()
{
    m_guide.stop();
    if (QTest::currentTestFailed())
        qWarning().noquote() << "lizard-local log (end):\n"
                             << QString::fromUtf8(m_guide.server().log().right(4000));
}

// make run: the window on the default project of the local server, which has no sandboxes yet
// and says what to do next; the key in its data dir. A first sandbox from the empty project's
// "New sandbox…", and a command in its console.
void TestGuideShots::firstStart()
{
    QTRY_VERIFY_WITH_TIMEOUT(
        window()->connectionText().startsWith("Connected: Local — " + m_guide.server().url()),
        30000);
    QTRY_COMPARE_WITH_TIMEOUT(window()->projectPanel()->currentProjectName(), QString("default"),
                              10000);
    QTRY_VERIFY(sandboxes()->newAction()->isEnabled());
    // The empty project says what to do next: New notebook, New sandbox…, the SDK line.
    QTRY_VERIFY_WITH_TIMEOUT(sandboxes()->showsEmptyProject(), 20000);
    ui::EmptyProjectView* empty = sandboxes()->emptyView();
    QVERIFY(empty->isVisible());
    QVERIFY(!sandboxes()->view()->isVisible());
    QTRY_VERIFY(empty->newNotebookButton()->isEnabled());
    QCOMPARE(empty->newNotebookButton()->text(), QString("New notebook"));
    QCOMPARE(empty->newSandboxButton()->text(), QString("New sandbox…"));
    QVERIFY2(empty->sdkText().contains("LIZARD_API_URL=" + m_guide.server().url()) &&
                 empty->sdkText().contains(m_guide.server().keyFile()),
             qPrintable(empty->sdkText()));
    QCOMPARE(m_guide.server().keyFile(), m_guide.server().dataDir() + "/api-key");
    // Only its owner may read it.
    const QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup |
                                            QFileDevice::ReadOther | QFileDevice::WriteOther;
    QVERIFY(QFile::permissions(m_guide.server().keyFile()) & QFileDevice::ReadOwner);
    QCOMPARE(QFile::permissions(m_guide.server().keyFile()) & others, QFileDevice::Permissions());
    QVERIFY(noErrorShown());
    saveScreenshot(window(), "first-start");

    QTest::mouseClick(empty->newSandboxButton(), Qt::LeftButton);
    auto* dialog = lizard::test::waitForVisible<ui::CreateSandboxDialog>();
    QVERIFY(dialog);
    QSignalSpy created(dialog, &ui::CreateSandboxDialog::sandboxCreated);
    dialog->templateBox()->setCurrentIndex(dialog->templateBox()->findData("interpreter"));
    dialog->lifetimeBox()->setValue(60);
    QCOMPARE(dialog->templateBox()->currentData().toString(), QString("interpreter"));
    saveScreenshot(dialog, "new-sandbox");
    QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(created.count(), 1, kSlowMs);
    m_sandboxId = created.at(0).at(0).value<client::SandboxInfo>().sandboxId;
    QTRY_COMPARE(sandboxes()->currentSandboxId(), m_sandboxId);
    QTRY_COMPARE(statusShown(m_sandboxId), QString("running"));
    QVERIFY(!sandboxes()->showsEmptyProject()); // the table is back, with the new sandbox
    QVERIFY(sandboxes()->view()->isVisible());

    const QString text = runInConsole(
        "uname -sr; python3 -c 'import sys; print(\"Python\", sys.version.split()[0], 6 * 7)'");
    QVERIFY2(text.contains("Linux ") && text.contains(" 42\n[exit 0]"), qPrintable(text));
    QTRY_COMPARE(window()->consoleArea()->currentConsole()->statusText(), QString("exit 0"));
    QTest::qWait(1100); // the Time left column ticks once
    QVERIFY(noErrorShown());
    saveScreenshot(window(), "console");
}

// Notebook ▸ Open notebook on the selected interpreter sandbox, a matplotlib cell, Shift+Enter.
void TestGuideShots::notebookWithAChart()
{
    QVERIFY(!m_sandboxId.isEmpty());
    showHome(nullptr);
    auto* controller = m_guide.app()->findChild<ui::notebook::NotebookController*>();
    QVERIFY(controller);
    // The menu, as the guide says: at the window's size the toolbar shows Open notebook only
    // behind its » button.
    QAction* open = lizard::test::menuAction(window(), "Notebook", "Open notebook");
    QCOMPARE(open, controller->openNotebookAction());
    QVERIFY(open->isEnabled());
    open->trigger();
    auto* page =
        qobject_cast<ui::notebook::NotebookPage*>(window()->documentTabs()->currentDocument());
    QVERIFY(page);
    QCOMPARE(page->sandboxId(), m_sandboxId);

    ui::notebook::CellListWidget* list = page->cells();
    list->enterEditMode();
    ui::notebook::CellEditor* editor = list->currentWidget()->editor();
    QTRY_VERIFY(editor->hasFocus());
    const QStringList lines{"import numpy as np",
                            "import matplotlib.pyplot as plt",
                            "x = np.linspace(0, 4 * np.pi, 200)",
                            "plt.figure(figsize=(6, 3))",
                            "plt.plot(x, np.sin(x), label='sin')",
                            "plt.plot(x, np.cos(x), label='cos')",
                            "plt.legend()",
                            "plt.show()",
                            "print('max', round(np.sin(x).max(), 3))"};
    for (int i = 0; i < lines.size(); ++i) {
        if (i > 0)
            QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClicks(editor, lines[i]);
    }
    ui::notebook::CellWidget* cell = list->currentWidget();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return, Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(cell->cell()->status() == CellStatus::Done ||
                                 cell->cell()->status() == CellStatus::Error,
                             kSlowMs);
    QCOMPARE(cell->cell()->status(), CellStatus::Done);
    ui::notebook::ImageOutputView* chart = nullptr;
    QString printed;
    for (int i = 0; i < cell->outputs()->count(); ++i) {
        if (auto* rich = qobject_cast<ui::notebook::RichOutputView*>(cell->outputs()->view(i));
            rich && rich->imageView())
            chart = rich->imageView();
        printed += cell->outputs()->view(i)->plainText();
    }
    QVERIFY2(chart, qPrintable(printed));
    QVERIFY(chart->image().width() > 300 && chart->image().height() > 150);
    QVERIFY(chart->isVisible());
    QVERIFY2(printed.contains("max 1.0"), qPrintable(printed));
    QTRY_VERIFY_WITH_TIMEOUT(page->header()->kernelText() == "idle", 30000);
    QTRY_VERIFY(page->header()->timeLeftText().startsWith("ends in"));
    QVERIFY(noErrorShown());
    saveScreenshot(window(), "notebook-chart");
}

// The Files tab: the sandbox's /home/user, an upload, a text file edited and saved, a download.
void TestGuideShots::files()
{
    ui::files::FilesPanel* panel = window()->filesPanel();
    showHome(panel);
    QTRY_COMPARE(panel->sandboxId(), m_sandboxId);
    QCOMPARE(panel->rootPath(), QString("/home/user"));
    // The user sees the folder listed, then uploads.
    QTRY_VERIFY_WITH_TIMEOUT(panel->model()->indexForPath("/home/user/.bashrc").isValid(), 30000);

    QFile local(m_tmp.filePath("measurements.csv"));
    QVERIFY(local.open(QIODevice::WriteOnly));
    local.write("day,temperature\nmon,12.5\ntue,14.0\nwed,13.2\n");
    local.close();
    QFile script(m_tmp.filePath("analyse.py"));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("import csv\n\nrows = list(csv.DictReader(open('measurements.csv')))\n"
                 "print(len(rows), 'days')\n");
    script.close();
    panel->uploadPaths({local.fileName(), script.fileName()}, "/home/user"); // what Upload… does
    QTRY_COMPARE_WITH_TIMEOUT(panel->transfers()->runningCount(), 0, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(panel->model()->indexForPath("/home/user/analyse.py").isValid(),
                             30000);
    QTRY_VERIFY_WITH_TIMEOUT(panel->selectPath("/home/user/measurements.csv"), 30000);
    QVERIFY(noErrorShown());
    saveScreenshot(window(), "files");

    // Double-click opens the script in an editor tab; typing marks it, Ctrl+S saves it back.
    QVERIFY(panel->selectPath("/home/user/analyse.py"));
    const QRect rect = panel->view()->visualRect(panel->view()->currentIndex());
    // A real double-click: QTest's sends no first press, which the view needs.
    QTest::mouseClick(panel->view()->viewport(), Qt::LeftButton, {}, rect.center());
    QTest::mouseDClick(panel->view()->viewport(), Qt::LeftButton, {}, rect.center());
    ui::files::FileEditorPage* editor = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((editor = qobject_cast<ui::files::FileEditorPage*>(
                                  window()->documentTabs()->currentDocument())),
                             30000);
    QCOMPARE(editor->title(), QString("analyse.py"));
    QVERIFY(m_guide.activate());
    editor->editor()->setFocus();
    editor->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(editor->editor(),
                     "print('warmest:', max(float(r['temperature']) for r in rows))");
    QTest::keyClick(editor->editor(), Qt::Key_Return);
    QCOMPARE(editor->title(), QString("analyse.py *"));
    QSignalSpy saved(editor, &ui::files::FileEditorPage::saved);
    QTest::keySequence(editor->editor(), QKeySequence::Save);
    QVERIFY(saved.wait(30000));
    QCOMPARE(editor->title(), QString("analyse.py"));
    QVERIFY(noErrorShown());
    saveScreenshot(window(), "file-editor");

    // The saved script runs in the sandbox, and Download… brings a file back.
    showHome(window()->consoleArea());
    const QString out = runInConsole("cd /home/user && python3 analyse.py");
    QVERIFY2(out.contains("3 days\nwarmest: 14.0\n"), qPrintable(out));
    const QString target = m_tmp.filePath("downloaded.py");
    panel->download("/home/user/analyse.py", false, target);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(target), 60000);
    QTRY_COMPARE_WITH_TIMEOUT(panel->transfers()->runningCount(), 0, 60000);
    QFile back(target);
    QVERIFY(back.open(QIODevice::ReadOnly));
    QVERIFY(back.readAll().endsWith("for r in rows))\n"));
    window()->statusBar()->clearMessage(); // "Download … → <a temporary path>: done" would stay 8 s
}

// A web server started in the console, found in the Ports tab, opened with Preview.
void TestGuideShots::previewAWebServer()
{
    ui::ports::PortsPanel* ports = window()->portsPanel();
    showHome(window()->consoleArea());
    const QString made =
        runInConsole(QString("mkdir -p /tmp/site && printf '<title>%1</title><h1>%1</h1><p>Served "
                             "by python3 -m http.server "
                             "inside the sandbox.</p>' > /tmp/site/index.html && echo made")
                         .arg(kPageTitle));
    QVERIFY2(made.contains("\nmade\n"), qPrintable(made));
    runInConsole("cd /tmp/site && python3 -m http.server 8000", false);

    window()->toolTabs()->setCurrentWidget(ports);
    QTRY_COMPARE(ports->sandboxId(), m_sandboxId);
    QTRY_VERIFY_WITH_TIMEOUT(ports->model()->rowOf(8000) >= 0, 30000);
    QCOMPARE(ports->model()->rowAt(ports->model()->rowOf(8000))->listening->process,
             QString("python3"));
    ports->selectPort(8000);
    QVERIFY(ports->previewAction()->isEnabled());
    QVERIFY(noErrorShown());
    saveScreenshot(window(), "ports");

    QPointer<ui::ports::PreviewPage> page;
    connect(ports, &ui::ports::PortsPanel::previewOpened, this,
            [&page](ui::ports::PreviewPage* p) { page = p; });
    QVERIFY(lizard::test::clickToolButton(ports, ports->previewAction()));
    QTRY_VERIFY_WITH_TIMEOUT(page, 30000);
    disconnect(ports, &ui::ports::PortsPanel::previewOpened, this, nullptr);
    QVERIFY(page->hasBrowser());
    QTRY_COMPARE_WITH_TIMEOUT(page->pageTitle(), kPageTitle, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!page->isLoading(), 30000);
    QVERIFY(!page->addressField()->text().contains("lizard_token"));
    std::optional<QString> heading;
    page->browser()->runJavaScript("document.querySelector('h1').textContent",
                                   [&heading](const QString& text) { heading = text; });
    QTRY_VERIFY_WITH_TIMEOUT(heading.has_value(), 10000);
    QCOMPARE(*heading, kPageTitle);
    QCOMPARE(window()->documentTabs()->currentDocument(),
             static_cast<ui::DocumentPage*>(page.data()));
    QTest::qWait(1500); // the web view paints after the load
    QVERIFY(noErrorShown());
    saveScreenshot(window(), "preview");
}

// Pause and Resume from the toolbar; Snapshot… to the Snapshots tab; Fork… ×2.
void TestGuideShots::pauseSnapshotFork()
{
    showHome(window()->consoleArea());
    QVERIFY(lizard::test::clickToolButton(sandboxes(), sandboxes()->pauseAction()));
    QTRY_COMPARE_WITH_TIMEOUT(statusShown(m_sandboxId), QString("paused"), 30000);
    QTRY_VERIFY(sandboxes()->resumeAction()->isEnabled());
    QVERIFY(!sandboxes()->forkAction()->isEnabled());
    QVERIFY(lizard::test::clickToolButton(sandboxes(), sandboxes()->resumeAction()));
    QTRY_COMPARE_WITH_TIMEOUT(statusShown(m_sandboxId), QString("running"), 30000);

    QTRY_VERIFY(sandboxes()->snapshotAction()->isEnabled());
    QVERIFY(lizard::test::clickToolButton(sandboxes(), sandboxes()->snapshotAction()));
    auto* ask = lizard::test::waitForVisible<QInputDialog>("snapshotNameDialog");
    QVERIFY(ask);
    ask->setTextValue("before the experiment");
    ask->accept();
    models::SnapshotListModel* snaps = window()->projectTabs()->snapshotModel();
    QTRY_COMPARE_WITH_TIMEOUT(snaps->rowCount(), 1, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(snaps->snapshotAt(0).status, QString("ready"), kSlowMs);

    QTRY_VERIFY(sandboxes()->forkAction()->isEnabled());
    QVERIFY(lizard::test::clickToolButton(sandboxes(), sandboxes()->forkAction()));
    QPointer<ui::ForkDialog> fork = lizard::test::waitForVisible<ui::ForkDialog>(); // closes itself
    QVERIFY(fork);
    fork->countBox()->setValue(2);
    fork->lifetimeBox()->setValue(30);
    saveScreenshot(fork, "fork-dialog");
    QSignalSpy forked(fork, &ui::ForkDialog::forked);
    QTest::mouseClick(fork->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(forked.count() == 1 || (fork && !fork->errorText().isEmpty()),
                             kSlowMs);
    QVERIFY2(forked.count() == 1, qPrintable(fork ? fork->errorText() : QString()));
    const auto copies = forked.at(0).at(0).value<QList<client::SandboxInfo>>();
    QCOMPARE(copies.size(), 2);
    QCOMPARE(sandboxes()->view()->selectionModel()->selectedRows().size(), 2);
    QVERIFY(statusShown(m_sandboxId).startsWith("running")); // the source keeps running
    // One copy paused, so the list shows both states.
    sandboxes()->pauseSandbox(copies.at(1).sandboxId);
    QTRY_COMPARE_WITH_TIMEOUT(statusShown(copies.at(1).sandboxId), QString("paused"), 30000);
    sandboxes()->selectSandbox(copies.at(0).sandboxId);
    QTest::qWait(1100);
    QVERIFY(noErrorShown());
    saveScreenshot(window(), "sandboxes-forked");

    window()->projectTabs()->setCurrentIndex(ui::ProjectTabs::SnapshotsTab);
    window()->projectTabs()->snapshotsView()->selectSnapshot(snaps->snapshotAt(0).id);
    QTRY_VERIFY(window()->projectTabs()->snapshotsView()->restoreAction()->isEnabled());
    QCOMPARE(snaps->index(0, models::SnapshotColumn::Name).data().toString(),
             QString("before the experiment"));
    QVERIFY(noErrorShown());
    saveScreenshot(window(), "snapshots");
    window()->projectTabs()->setCurrentIndex(ui::ProjectTabs::SandboxesTab);
}

// Lizard ▸ Connections…: a cloud connection added (its key kept in a 0600 file here, no
// keychain in tests); a plain http:// address is refused until confirmed. Nothing switches.
void TestGuideShots::connectToTheCloud()
{
    QAction* open = lizard::test::menuAction(window(), "Lizard", "Connections");
    QVERIFY(open);
    QString defaultUrl, warning, refusal;
    int profilesShown = 0, profilesAfterRefusal = 0;
    lizard::test::whenModal<ui::ConnectionsDialog>(this, [&](ui::ConnectionsDialog* dialog) {
        dialog->nameEdit()->setText("Work");
        defaultUrl = dialog->urlEdit()->text();
        dialog->keyEdit()->setText("liz_example_key_typed_by_the_user");
        saveScreenshot(dialog, "connections");
        lizard::test::clickButton(dialog, "Add cloud connection");
        profilesShown = dialog->list()->count();
        // A plain http:// address elsewhere: the warning, answered with Cancel.
        dialog->nameEdit()->setText("Plain");
        dialog->urlEdit()->setText("http://sandboxes.example.com");
        dialog->keyEdit()->setText("liz_example_key_typed_by_the_user");
        lizard::test::whenModal<QMessageBox>(this, [&](QMessageBox* box) {
            warning = box->text() + "\n" + box->informativeText();
            saveScreenshot(box, "key-in-clear-warning");
            box->button(QMessageBox::Cancel)->click();
        });
        lizard::test::clickButton(dialog, "Add cloud connection");
        for (QLabel* label : dialog->findChildren<QLabel*>())
            if (label->isVisible() && label->text().startsWith("Not added"))
                refusal = label->text();
        profilesAfterRefusal = dialog->list()->count();
        dialog->list()->setCurrentRow(0); // stay on this computer: the test has no cloud account
        lizard::test::clickButton(dialog, "Use selected");
    });
    open->trigger(); // the dialog runs modal until "Use selected"
    QCOMPARE(defaultUrl, QString("https://lizard.build"));
    QVERIFY2(warning.contains("unencrypted") && warning.contains("sandboxes.example.com"),
             qPrintable(warning));
    QVERIFY2(refusal.contains("unencrypted"), qPrintable(refusal));
    QCOMPARE(profilesShown, 2);
    QCOMPARE(profilesAfterRefusal, 2);
    app::SettingsStore settings(m_guide.settingsFile());
    QCOMPARE(settings.profiles().size(), 2);
    QCOMPARE(settings.profiles().at(1).url, QString("https://lizard.build"));
    QCOMPARE(settings.activeId(), QString("local"));
    QTRY_VERIFY_WITH_TIMEOUT(window()->connectionText().startsWith("Connected: Local"), 30000);
}

int main(int argc, char** argv)
{
    return lizard::test::guideMain<TestGuideShots>(argc, argv);
}

#include "tst_guideshots.moc"
