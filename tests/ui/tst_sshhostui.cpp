// An SSH host added in Lizard ▸ Connections… and used, in the app as main() builds it: the form,
// the unknown host key's question with its fingerprint, the host in the status bar and in the
// list. Then the work a user does there, through the tunnel: New notebook makes a sandbox on the
// host whose cell draws a chart, the Ports tab previews a web server of that sandbox in the app's
// browser, the Files tab downloads a file byte for byte. Last, the connection cut (ssh killed) is
// said in the status bar, and comes back by itself with the preview working again. The host is a
// real sshd in a network namespace of the test's own (support/sshhost.h), with the real
// lizard-local the app starts there.
#include "app/connectioncontroller.h"
#include "app/desktopapp.h"
#include "app/keystore.h"
#include "app/settingsstore.h"
#include "app/ssh/sshtunnel.h"
#include "client/lizardapi.h"
#include "models/files/transferjobsmodel.h"
#include "models/portlistmodel.h"
#include "models/sandboxtablemodel.h"
#include "notebook/notebooklauncher.h"
#include "support/apiwait.h"
#include "support/screenshot.h"
#include "support/sshhost.h"
#include "support/webenginemain.h"
#include "ui/connectionsdialog.h"
#include "ui/documenttabs.h"
#include "ui/files/filespanel.h"
#include "ui/mainwindow.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/imageoutputview.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookheader.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/ports/portspanel.h"
#include "ui/ports/previewengine.h"
#include "ui/ports/previewpage.h"
#include "ui/projecttabs.h"
#include "ui/sandboxpanel.h"
#include "ui/sshhostform.h"
#include "uidriver.h"

#include <QApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPointer>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <optional>
#include <signal.h>

using namespace lizard;

class TestSshHostUi : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void addHostAnswerTheKeyAndSeeItInTheStatusBar();
    void aNotebookOnTheHostDrawsAChart();
    void aWebServerOnTheHostPreviews();
    void aFileOnTheHostDownloads();
    void aDropIsSaidAndRepaired();
    void cleanup();
    void cleanupTestCase();

private:
    ui::MainWindow* window() const { return m_app->window(); }
    bool writeFile(const QString& path, const QByteArray& content);
    // The window's home page, on the Sandboxes tab with the notebook's sandbox selected and the
    // tool tab `tool` shown, as the user gets there from a notebook.
    void showHome(QWidget* tool)
    {
        window()->documentTabs()->setCurrentIndex(0);
        window()->projectTabs()->setCurrentIndex(ui::ProjectTabs::SandboxesTab);
        window()->sandboxPanel()->selectSandbox(m_sandboxId);
        window()->toolTabs()->setCurrentWidget(tool);
    }

    test::SshHost m_host;
    QTemporaryDir m_tmp;
    std::unique_ptr<app::DesktopApp> m_app;
    QString m_sandboxId; // the notebook's sandbox, on the host
    QPointer<ui::ports::PreviewPage> m_preview;
};

namespace {
const QString kTitle = QStringLiteral("Served on the SSH host");
}

bool TestSshHostUi::writeFile(const QString& path, const QByteArray& content)
{
    const auto written = test::waitFor<client::Unit>([&](QObject* ctx, auto done) {
        return window()->api()->writeFile(m_sandboxId, path, content, ctx, done);
    });
    return written && written->ok();
}

void TestSshHostUi::initTestCase()
{
    QVERIFY2(QFile::exists("/usr/sbin/sshd"),
             "/usr/sbin/sshd is missing: install openssh-server (scripts/install-deps.sh)");
    if (::geteuid() != 0)
        QSKIP("the SSH host is a network namespace, which needs root");
    QStandardPaths::setTestModeEnabled(true);
    QString why;
    QVERIFY2(m_host.start(&why), qPrintable(why));
    qputenv("LIZARD_TEST_SSH_CONFIG", m_host.clientConfig().toUtf8());
    qputenv("HOME", m_tmp.path().toUtf8());
    auto* keys = new app::KeyStore(m_tmp.filePath("keys.json"), false, this);
    // Not started on the local connection: this suite needs no lizard-local of this computer.
    m_app = std::make_unique<app::DesktopApp>(
        std::make_unique<app::SettingsStore>(m_tmp.filePath("settings.ini")), keys,
        m_tmp.filePath("local-data"));
    window()->resize(1100, 700);
    window()->show();
    QVERIFY(QTest::qWaitForWindowExposed(window()));
}

void TestSshHostUi::addHostAnswerTheKeyAndSeeItInTheStatusBar()
{
    QAction* open = test::menuAction(window(), "Lizard", "Connections");
    QVERIFY(open);
    QString listed;
    test::whenModal<ui::ConnectionsDialog>(this, [&](ui::ConnectionsDialog* dialog) {
        dialog->sshForm()->nameEdit()->setText("Test host");
        dialog->sshForm()->destinationEdit()->setText(m_host.destination());
        dialog->sshForm()->portBox()->setValue(m_host.port());
        test::clickButton(dialog, "Add SSH host");
        listed = dialog->list()->currentItem()->text();
        test::clickButton(dialog, "Use selected");
    });
    open->trigger(); // modal until "Use selected"
    QCOMPARE(listed, QString("Test host — SSH %1:2222").arg(m_host.destination()));
    app::SettingsStore settings(m_tmp.filePath("settings.ini"));
    QCOMPARE(settings.activeProfile().kind, models::ConnectionProfile::Kind::Ssh);

    // ssh's question, as a dialog with the host's fingerprint; Cancel is the default.
    auto* box = test::waitForVisible<QMessageBox>("hostKeyQuestion", 30000);
    QVERIFY(box);
    QVERIFY2(box->informativeText().contains(m_host.hostKeyFingerprint()),
             qPrintable(box->informativeText()));
    QCOMPARE(box->defaultButton(), box->button(QMessageBox::Cancel));
    QVERIFY(test::clickButton(box, "Trust and connect"));

    // The host in the status bar once lizard-local answers there.
    QTRY_VERIFY_WITH_TIMEOUT(window()->connectionText().startsWith("Connected: SSH"), 120000);
    QVERIFY2(window()->connectionText().contains(m_host.destination() + ":2222"),
             qPrintable(window()->connectionText()));
    QVERIFY(window()->api() != nullptr);
}

void TestSshHostUi::aNotebookOnTheHostDrawsAChart()
{
    using namespace ui::notebook;
    // The bounds below add up to less than Qt Test's 5 minutes per function, so a failure says
    // which step it was.
    QVERIFY2(window()->api(), "not connected");
    QTRY_VERIFY_WITH_TIMEOUT(
        window()->sandboxModel() && !window()->sandboxModel()->projectId().isEmpty(), 30000);
    qRegisterMetaType<NotebookPage*>(); // for QSignalSpy
    NotebookController* notebooks = m_app->notebooks();
    QSignalSpy opened(notebooks, &NotebookController::newNotebookOpened);
    QSignalSpy failed(notebooks, &NotebookController::newNotebookFailed);
    notebooks->newNotebookAction()->trigger();
    QVERIFY2(notebooks->launcher(), qPrintable(window()->statusBar()->currentMessage()));
    QString stage;
    connect(notebooks->launcher(), &notebook::NotebookLauncher::stageChanged, this,
            [&stage](notebook::NotebookLauncher::Stage s) {
                stage = notebook::NotebookLauncher::stageText(s);
            });
    QTRY_VERIFY2_WITH_TIMEOUT(!opened.isEmpty() || !failed.isEmpty(),
                              qPrintable("still at: " + stage), 150000);
    QVERIFY2(failed.isEmpty(),
             failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    auto* page = opened.first().first().value<NotebookPage*>();
    QVERIFY(page);
    m_sandboxId = page->sandboxId();
    // The sandbox is the host's: its lizard-local lists it (asked there, not through the app).
    QFile info(m_host.remoteDataDir() + "/server.json");
    QVERIFY(info.open(QIODevice::ReadOnly));
    const QJsonObject server = QJsonDocument::fromJson(info.readAll()).object();
    QFile keyFile(server.value("keyFile").toString());
    QVERIFY(keyFile.open(QIODevice::ReadOnly));
    int status = -1;
    const QByteArray onHost = m_host.runOnHost(
        {"curl", "-sf", "-H", "X-API-Key: " + QString::fromUtf8(keyFile.readAll()).trimmed(),
         server.value("url").toString() + "/api/sandboxes/" + m_sandboxId},
        &status);
    QVERIFY2(status == 0 && onHost.contains(m_sandboxId.toUtf8()), onHost.constData());

    QTRY_COMPARE_WITH_TIMEOUT(page->header()->kernelText(), QString("idle"), 60000);
    CellWidget* cell = page->cells()->currentWidget();
    QVERIFY(cell);
    cell->editor()->setPlainText(
        "import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()");
    page->cells()->runCurrent(CellEditor::RunMode::InPlace);
    QTRY_VERIFY_WITH_TIMEOUT(!cell->outputs()->findChildren<ImageOutputView*>().isEmpty(), 60000);
    const ImageOutputView* chart = cell->outputs()->findChildren<ImageOutputView*>().first();
    QTRY_VERIFY(chart->isVisible());
    QVERIFY2(chart->pixmap().width() > 200, qPrintable(QString::number(chart->pixmap().width())));
    test::saveScreenshot(window(), "ssh-notebook");
    page->document()->setClean(); // no question about saving it at the end
}

void TestSshHostUi::aWebServerOnTheHostPreviews()
{
    QVERIFY2(!m_sandboxId.isEmpty(), "no sandbox: the notebook's case failed");
    QVERIFY(writeFile("/tmp/site/index.html", "<!doctype html><html><head><title>" +
                                                  kTitle.toUtf8() +
                                                  "</title></head><body><h1>On the host</h1>"
                                                  "</body></html>"));
    // Detached (setsid -f), as a server meant to outlive its command is started: a command's
    // processes end with the connection that runs it, and the case of the cut connection below
    // comes back to this server.
    client::ExecOptions opts;
    opts.workdir = "/tmp/site";
    const auto started = test::waitFor<client::ExecResult>([&](QObject* ctx, auto done) {
        return window()->api()->exec(
            m_sandboxId, "setsid -f python3 -m http.server 8000 >/dev/null 2>&1 </dev/null", opts,
            ctx, done);
    });
    QVERIFY(started && started->ok() && started->value().exitCode == 0);

    // What the user does: select the sandbox, open the Ports tab, pick the port, Preview.
    QTRY_VERIFY_WITH_TIMEOUT(window()->sandboxModel()->rowOf(m_sandboxId) >= 0, 30000);
    ui::ports::PortsPanel* ports = window()->portsPanel();
    showHome(ports);
    QTRY_COMPARE(ports->sandboxId(), m_sandboxId);
    QTRY_VERIFY2_WITH_TIMEOUT(ports->model()->rowOf(8000) >= 0,
                              qPrintable(QStringLiteral("visible %1, polling %2: %3")
                                             .arg(ports->isVisible())
                                             .arg(ports->model()->isPolling())
                                             .arg(ports->statusText())),
                              60000);
    ports->selectPort(8000);
    QVERIFY(ports->previewAction()->isEnabled());
    connect(ports, &ui::ports::PortsPanel::previewOpened, this,
            [this](ui::ports::PreviewPage* page) { m_preview = page; });
    ports->previewAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(m_preview, 60000);
    disconnect(ports, &ui::ports::PortsPanel::previewOpened, this, nullptr);
    QVERIFY(m_preview->hasBrowser());
    QTRY_COMPARE_WITH_TIMEOUT(m_preview->pageTitle(), kTitle, 60000);
    QCOMPARE(window()->documentTabs()->currentDocument(),
             static_cast<ui::DocumentPage*>(m_preview.data()));
    std::optional<QString> heading;
    m_preview->browser()->runJavaScript("document.querySelector('h1').textContent",
                                        [&heading](const QString& r) { heading = r; });
    QTRY_VERIFY_WITH_TIMEOUT(heading.has_value(), 10000);
    QCOMPARE(*heading, QString("On the host"));
}

void TestSshHostUi::aFileOnTheHostDownloads()
{
    QVERIFY2(!m_sandboxId.isEmpty(), "no sandbox: the notebook's case failed");
    // Random bytes, more than one read's worth, so the download is a stream, not one answer.
    QByteArray bytes(3 * 1024 * 1024 + 17, Qt::Uninitialized);
    QRandomGenerator gen(42);
    for (char& c : bytes)
        c = char(gen.generate() & 0xff);
    QVERIFY(writeFile("/home/user/results.bin", bytes));
    ui::files::FilesPanel* files = window()->filesPanel();
    showHome(files);
    QTRY_COMPARE(files->sandboxId(), m_sandboxId);
    const QString target = m_tmp.filePath("results.bin");
    files->download("/home/user/results.bin", false, target);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(target), 60000);
    QTRY_COMPARE_WITH_TIMEOUT(files->transfers()->runningCount(), 0, 60000);
    QFile back(target);
    QVERIFY(back.open(QIODevice::ReadOnly));
    QVERIFY(back.readAll() == bytes);
}

void TestSshHostUi::aDropIsSaidAndRepaired()
{
    app::ssh::SshTunnel* tunnel = m_app->controller()->tunnel();
    QVERIFY(tunnel && tunnel->isUp());
    auto* state = window()->findChild<QLabel*>("sshTunnelState");
    QVERIFY(state);
    QVERIFY(!state->isVisible());
    QVERIFY(::kill(pid_t(tunnel->masterPid()), SIGKILL) == 0);
    QTRY_VERIFY_WITH_TIMEOUT(state->isVisible(), 10000);
    QVERIFY2(
        state->text().contains("The SSH connection to " + m_host.destination() + ":2222 ended"),
        qPrintable(state->text()));
    QVERIFY2(state->text().contains("Connecting again in"), qPrintable(state->text()));
    QTRY_VERIFY_WITH_TIMEOUT(
        state->text() == "Connected to " + m_host.destination() + ":2222 again over SSH.", 60000);
    QTRY_VERIFY2_WITH_TIMEOUT(window()->connectionText().startsWith("Connected: SSH"),
                              qPrintable(window()->connectionText()), 10000);
    // The open preview reaches its page again, through the new connection.
    if (m_preview) {
        QVERIFY(writeFile("/tmp/site/again.html",
                          "<html><head><title>Again</title></head><body>again</body></html>"));
        m_preview->addressField()->setText("/again.html");
        QTest::keyClick(m_preview->addressField(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(m_preview->pageTitle(), QString("Again"), 60000);
    }
}

void TestSshHostUi::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning().noquote() << "sshd log (end):\n" << m_host.sshdLog().right(3000);
}

void TestSshHostUi::cleanupTestCase()
{
    m_app.reset();
    m_host.stop();
}

LIZARD_WEBENGINE_TEST_MAIN(TestSshHostUi)
#include "tst_sshhostui.moc"
