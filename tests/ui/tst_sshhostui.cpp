// An SSH host added in Lizard ▸ Connections… and used, in the app as main() builds it: the form,
// the unknown host key's question with its fingerprint, the host in the status bar and in the
// list; the connection cut (ssh killed) said in the status bar, and back by itself. The host is a
// real sshd in a network namespace of the test's own (support/sshhost.h), with the real
// lizard-local the app starts there.
#include "app/connectioncontroller.h"
#include "app/desktopapp.h"
#include "app/keystore.h"
#include "app/settingsstore.h"
#include "app/ssh/sshtunnel.h"
#include "support/sshhost.h"
#include "ui/connectionsdialog.h"
#include "ui/mainwindow.h"
#include "ui/sshhostform.h"
#include "uidriver.h"

#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
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
