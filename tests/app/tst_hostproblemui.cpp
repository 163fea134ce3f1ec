// What the app shows on a computer where sandboxes cannot be made, against a real lizard-local
// started as on such a host (LIZARD_TEST_HOST_PROBLEM): the empty project says why and gives the
// command that fixes it, to copy; Help ▸ Check this computer shows `lizard-local doctor`'s report
// with its verdict, here and on this host as it is. Saves the guide's pictures.
#include "app/serverlog.h"
#include "client/lizardapi.h"
#include "support/localserver.h"
#include "support/screenshot.h"
#include "ui/emptyprojectview.h"
#include "ui/hostcheckdialog.h"
#include "ui/mainwindow.h"
#include "ui/sandboxpanel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QPointer>
#include <QPushButton>
#include <QTest>

using namespace lizard;

class TestHostProblemUi : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void theEmptyProjectSaysWhyAndHowToFix();
    void checkThisComputerShowsTheReport_data();
    void checkThisComputerShowsTheReport();

private:
    // The dialog Help ▸ Check this computer opened, once its check ended.
    ui::HostCheckDialog* runCheck();

    test::LocalServer m_server;
    std::unique_ptr<client::LizardApi> m_api;
    std::unique_ptr<ui::MainWindow> m_window;
};

void TestHostProblemUi::initTestCase()
{
    qputenv("LIZARD_TEST_HOST_PROBLEM", "userns-restricted-unloaded");
    const bool started = m_server.start();
    qunsetenv("LIZARD_TEST_HOST_PROBLEM");
    QVERIFY2(started, qPrintable(m_server.errorString()));
    m_api =
        std::make_unique<client::LizardApi>(client::Endpoint{m_server.url(), m_server.apiKey()});
    m_window = std::make_unique<ui::MainWindow>();
    // The notes as the app reads them from the log of the lizard-local it started.
    const QStringList notes = app::capabilityNotes(QString::fromUtf8(m_server.log()));
    m_window->setBackend(m_api.get(), QStringLiteral("test"), notes);
    m_window->setHostCheckProgram(test::LocalServer::serverBinary());
    m_window->resize(1100, 700);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestHostProblemUi::cleanupTestCase()
{
    m_window.reset();
    m_api.reset();
    m_server.stop();
}

void TestHostProblemUi::theEmptyProjectSaysWhyAndHowToFix()
{
    ui::EmptyProjectView* empty = m_window->sandboxPanel()->emptyView();
    QTRY_VERIFY_WITH_TIMEOUT(empty->isVisible(), 10000);
    const QString shown = empty->hostProblemText();
    QVERIFY2(shown.contains("AppArmor restricts unprivileged user namespaces") &&
                 shown.contains("installed but not loaded"),
             qPrintable(shown));
    QCOMPARE(empty->fixCommand(),
             QStringLiteral("sudo apparmor_parser -r /etc/apparmor.d/lizard-agent"));
    QVERIFY(empty->copyFixButton()->isVisible());
    QApplication::clipboard()->clear();
    QTest::mouseClick(empty->copyFixButton(), Qt::LeftButton);
    QCOMPARE(QApplication::clipboard()->text(), empty->fixCommand());
    test::saveScreenshot(m_window.get(), QStringLiteral("no-sandboxes-here"));
}

ui::HostCheckDialog* TestHostProblemUi::runCheck()
{
    QAction* check = m_window->checkComputerAction();
    if (check == nullptr || !m_window->helpMenu()->actions().contains(check))
        return nullptr;
    check->trigger();
    auto* dialog = m_window->findChild<ui::HostCheckDialog*>();
    if (dialog == nullptr)
        return nullptr;
    if (!QTest::qWaitFor([dialog] { return !dialog->isRunning(); }, 120000))
        qWarning("the check still runs after 120 s");
    return dialog;
}

void TestHostProblemUi::checkThisComputerShowsTheReport_data()
{
    QTest::addColumn<QByteArray>("problem");
    QTest::addColumn<QString>("verdict");
    QTest::addColumn<QString>("line");
    QTest::newRow("this host") << QByteArray() << "Sandboxes can be made"
                               << "[ok] sandboxes";
    QTest::newRow("restricted") << QByteArray("userns-restricted") << "Sandboxes cannot be made"
                                << "USERNS_RESTRICTED";
}

void TestHostProblemUi::checkThisComputerShowsTheReport()
{
    QFETCH(QByteArray, problem);
    QFETCH(QString, verdict);
    QFETCH(QString, line);
    if (!problem.isEmpty())
        qputenv("LIZARD_TEST_HOST_PROBLEM", problem); // the doctor the dialog starts inherits it
    ui::HostCheckDialog* dialog = runCheck();
    qunsetenv("LIZARD_TEST_HOST_PROBLEM");
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QVERIFY2(dialog->verdict().contains(verdict), qPrintable(dialog->verdict()));
    QVERIFY2(dialog->report().contains(line), qPrintable(dialog->report()));
    QVERIFY2(dialog->report().contains("[ok] seccomp") || dialog->report().contains("[--] seccomp"),
             qPrintable(dialog->report()));
    if (problem.isEmpty())
        test::saveScreenshot(dialog, QStringLiteral("check-this-computer"));
    const QPointer<ui::HostCheckDialog> closing(dialog);
    QTest::keyClick(dialog, Qt::Key_Escape); // Close: the dialog goes with its window
    QTRY_VERIFY(closing.isNull());
}

QTEST_MAIN(TestHostProblemUi)
#include "tst_hostproblemui.moc"
