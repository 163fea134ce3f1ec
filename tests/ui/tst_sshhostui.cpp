// An SSH host added in Lizard ▸ Connections… and used, in the app as main() builds it: the form,
// the unknown host key's question with its fingerprint, the host in the status bar and in the
// list; the connection cut (ssh killed) said in the status bar, and back by itself. The host is a
// real sshd in a network namespace of the test's own (support/sshhost.h), with the real
// lizard-local the app starts there. Through it, New notebook makes a sandbox on the host and
// its cell draws a chart, as on this computer.
#include "app/connectioncontroller.h"
#include "app/desktopapp.h"
#include "app/keystore.h"
#include "app/settingsstore.h"
#include "app/ssh/sshtunnel.h"
#include "support/screenshot.h"
#include "support/sshhost.h"
#include "ui/connectionsdialog.h"
#include "ui/mainwindow.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/imageoutputview.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookheader.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/sshhostform.h"
#include "uidriver.h"

#include <QApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <signal.h>

using namespace lizard;

class TestSshHostUi : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void addHostAnswerTheKeyAndSeeItInTheStatusBar();
    void aNotebookOnTheHostDrawsAChart();
    void aDropIsSaidAndRepaired();
    void cleanupTestCase();

private:
    ui::MainWindow* window() const { return m_app->window(); }

    test::SshHost m_host;
    QTemporaryDir m_tmp;
    std::unique_ptr<app::DesktopApp> m_app;
};

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
    qRegisterMetaType<NotebookPage*>(); // for QSignalSpy
    NotebookController* notebooks = m_app->notebooks();
    QSignalSpy opened(notebooks, &NotebookController::newNotebookOpened);
    QSignalSpy failed(notebooks, &NotebookController::newNotebookFailed);
    notebooks->newNotebookAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty() || !failed.isEmpty(), 180000);
    QVERIFY2(failed.isEmpty(),
             failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    auto* page = opened.first().first().value<NotebookPage*>();
    QVERIFY(page);
    // The sandbox is the host's: its lizard-local lists it (asked there, not through the app).
    QFile info(m_host.remoteDataDir() + "/server.json");
    QVERIFY(info.open(QIODevice::ReadOnly));
    const QJsonObject server = QJsonDocument::fromJson(info.readAll()).object();
    QFile keyFile(server.value("keyFile").toString());
    QVERIFY(keyFile.open(QIODevice::ReadOnly));
    int status = -1;
    const QByteArray onHost = m_host.runOnHost(
        {"curl", "-sf", "-H", "X-API-Key: " + QString::fromUtf8(keyFile.readAll()).trimmed(),
         server.value("url").toString() + "/api/sandboxes/" + page->sandboxId()},
        &status);
    QVERIFY2(status == 0 && onHost.contains(page->sandboxId().toUtf8()), onHost.constData());
    QTRY_COMPARE_WITH_TIMEOUT(page->header()->kernelText(), QString("idle"), 120000);
    CellWidget* cell = page->cells()->currentWidget();
    QVERIFY(cell);
    cell->editor()->setPlainText(
        "import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()");
    page->cells()->runCurrent(CellEditor::RunMode::InPlace);
    QTRY_VERIFY_WITH_TIMEOUT(!cell->outputs()->findChildren<ImageOutputView*>().isEmpty(), 120000);
    const ImageOutputView* chart = cell->outputs()->findChildren<ImageOutputView*>().first();
    QTRY_VERIFY(chart->isVisible());
    QVERIFY2(chart->pixmap().width() > 200, qPrintable(QString::number(chart->pixmap().width())));
    lizard::test::saveScreenshot(window(), "ssh-notebook");
    page->document()->setClean();
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
}

void TestSshHostUi::cleanupTestCase()
{
    m_app.reset();
    m_host.stop();
}

QTEST_MAIN(TestSshHostUi)
#include "tst_sshhostui.moc"
