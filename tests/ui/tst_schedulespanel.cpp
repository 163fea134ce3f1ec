// The Schedules tab against a real lizard-local: Add makes a schedule that the list shows with
// its next run; a cron the server refuses keeps the dialog open with the server's reason and
// adds nothing; Run now on a paused sandbox shows the run, its output, and that the sandbox was
// woken and put back to sleep; a failing run counts in "failures in a row"; Disable and Enable;
// Edit to a cron in a time zone. Saves the picture of the guide (docs/guide/schedules.png).
#include "models/sandboxtablemodel.h"
#include "models/schedules/schedulelistmodel.h"
#include "models/schedules/schedulerunmodel.h"
#include "support/sandboxfixture.h"
#include "support/themedscreenshot.h"
#include "ui/mainwindow.h"
#include "ui/sandboxpanel.h"
#include "ui/schedules/scheduledialog.h"
#include "ui/schedules/schedulespanel.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QRadioButton>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimeZone>

using namespace lizard;
using test::ApiWaiter;
using ScheduleColumns = models::ScheduleListModel;
using RunColumns = models::ScheduleRunModel;

class TestSchedulesPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }

    void addShowsTheScheduleAndItsNextRun();
    void refusedCronKeepsTheDialogAndAddsNothing();
    void runNowWakesThePausedSandboxAndShowsTheOutput();
    void aFailingRunCountsInARow();
    void disableAndEnable();
    void editToACronInATimeZone();

private:
    QString cell(int column) const; // of the selected schedule
    QString runCell(int row, int column) const;
    QString sandboxStatus();
    void submit(ui::schedules::ScheduleDialog* dialog);

    test::SandboxFixture m_fx;
    QString m_id;
    std::unique_ptr<ui::MainWindow> m_window;
    ui::schedules::SchedulesPanel* m_panel = nullptr;
};

void TestSchedulesPanel::initTestCase()
{
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
    m_id = m_fx.sandboxId();
    m_window = std::make_unique<ui::MainWindow>();
    m_window->setBackend(&m_fx.api(), "test", {});
    m_window->resize(1200, 760);
    m_window->show();
    m_panel = m_window->schedulesPanel();
    QVERIFY(m_panel);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->sandboxModel()->rowOf(m_id) >= 0, 30000);
    m_window->sandboxPanel()->selectSandbox(m_id);
    m_window->toolTabs()->setCurrentWidget(m_panel);
    QCOMPARE(m_window->toolTabs()->tabText(m_window->toolTabs()->currentIndex()),
             QStringLiteral("Schedules"));
    QTRY_COMPARE(m_panel->model()->sandboxId(), m_id);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->model()->hasListed(), 15000);
    QVERIFY2(m_panel->statusText().startsWith("No schedules"), qPrintable(m_panel->statusText()));
}

void TestSchedulesPanel::cleanupTestCase()
{
    m_window.reset();
    m_fx.stop();
}

QString TestSchedulesPanel::cell(int column) const
{
    const int row = m_panel->model()->rowOf(m_panel->selectedScheduleId());
    return row < 0 ? QString() : m_panel->model()->index(row, column).data().toString();
}

QString TestSchedulesPanel::runCell(int row, int column) const
{
    return m_panel->runModel()->index(row, column).data().toString();
}

QString TestSchedulesPanel::sandboxStatus()
{
    ApiWaiter<client::SandboxInfo> w;
    m_fx.api().getSandbox(m_id, nullptr, w.done());
    return w.wait() && w.ok() ? w.value().status : QString::fromUtf8(w.why());
}

void TestSchedulesPanel::submit(ui::schedules::ScheduleDialog* dialog)
{
    QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                      Qt::LeftButton);
}

void TestSchedulesPanel::addShowsTheScheduleAndItsNextRun()
{
    QVERIFY(m_panel->addAction()->isEnabled());
    QVERIFY(!m_panel->runNowAction()->isEnabled()); // nothing selected yet
    QPointer<ui::schedules::ScheduleDialog> dialog = m_panel->openAddDialog();
    QVERIFY(dialog);
    QVERIFY(dialog->everyButton()->isChecked());
    QVERIFY(!dialog->timezoneBox()->isEnabled()); // a time zone is for cron only
    QTest::keyClicks(dialog->nameEdit(), QStringLiteral("answer"));
    QTest::keyClicks(dialog->everyEdit(), QStringLiteral("1h"));
    QTest::keyClicks(dialog->commandEdit(), QStringLiteral("echo \"the answer is $((6 * 7))\""));
    submit(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog, 15000); // closed once the server took it
    QCOMPARE(m_panel->model()->rowCount(), 1);
    QTRY_COMPARE(cell(ScheduleColumns::NameColumn), QStringLiteral("answer"));
    QCOMPARE(cell(ScheduleColumns::WhenColumn), QStringLiteral("every 1h"));
    QCOMPARE(cell(ScheduleColumns::LastStatusColumn), QStringLiteral("not run yet"));
    QCOMPARE(cell(ScheduleColumns::StateColumn), QStringLiteral("enabled"));
    const QString next = cell(ScheduleColumns::NextRunColumn);
    QVERIFY2(next == "in 1 h" || next == "in 59 min", qPrintable(next));
    QVERIFY2(m_panel->statusText().contains("1 schedule, 1 enabled · next run in"),
             qPrintable(m_panel->statusText()));
    QVERIFY(m_panel->runNowAction()->isEnabled());
    QVERIFY(m_panel->disableAction()->isEnabled());
    QVERIFY(!m_panel->enableAction()->isEnabled());
}

void TestSchedulesPanel::refusedCronKeepsTheDialogAndAddsNothing()
{
    QPointer<ui::schedules::ScheduleDialog> dialog = m_panel->openAddDialog();
    QVERIFY(dialog);
    dialog->cronButton()->setChecked(true);
    QVERIFY(dialog->timezoneBox()->isEnabled());
    QTest::keyClicks(dialog->cronEdit(), QStringLiteral("61 * * * *"));
    QTest::keyClicks(dialog->commandEdit(), QStringLiteral("date"));
    submit(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->errorText().isEmpty(), 15000);
    QVERIFY2(dialog->errorText().contains("INVALID_CRON") || dialog->errorText().contains("minute"),
             qPrintable(dialog->errorText()));
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->cronEdit()->text(), QStringLiteral("61 * * * *")); // nothing lost
    QCOMPARE(dialog->commandEdit()->toPlainText(), QStringLiteral("date"));
    dialog->reject();
    m_panel->model()->refresh();
    QSignalSpy refreshed(m_panel->model(), &models::ScheduleListModel::refreshed);
    QVERIFY(refreshed.wait(10000));
    QCOMPARE(m_panel->model()->rowCount(), 1);
}

void TestSchedulesPanel::runNowWakesThePausedSandboxAndShowsTheOutput()
{
    ApiWaiter<client::Unit> paused;
    m_fx.api().pauseSandbox(m_id, nullptr, paused.done());
    QVERIFY2(paused.wait() && paused.ok(), paused.why());
    QTRY_COMPARE_WITH_TIMEOUT(sandboxStatus(), QStringLiteral("paused"), 20000);
    QVERIFY(m_panel->runNowAction()->isEnabled());
    m_panel->runNowAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->runModel()->rowCount() == 1 &&
                                 runCell(0, RunColumns::StatusColumn) == "succeeded",
                             30000);
    QTRY_COMPARE_WITH_TIMEOUT(m_panel->outputView()->toPlainText(),
                              QStringLiteral("the answer is 42\n"), 10000);
    QCOMPARE(runCell(0, RunColumns::ExitCodeColumn), QStringLiteral("0"));
    QVERIFY(!runCell(0, RunColumns::DurationColumn).isEmpty());
    QCOMPARE(runCell(0, RunColumns::SleepColumn), QStringLiteral("woke it, put it back to sleep"));
    QTRY_COMPARE_WITH_TIMEOUT(cell(ScheduleColumns::LastStatusColumn), QStringLiteral("succeeded"),
                              10000);
    QCOMPARE(sandboxStatus(), QStringLiteral("paused"));
    QCOMPARE(m_panel->runsView()->selectionModel()->selectedRows().size(), 1);
    test::saveLightAndDark(m_window.get(), QStringLiteral("schedules"));
    ApiWaiter<client::Unit> resumed;
    m_fx.api().resumeSandbox(m_id, nullptr, resumed.done());
    QVERIFY2(resumed.wait() && resumed.ok(), resumed.why());
    QTRY_COMPARE_WITH_TIMEOUT(sandboxStatus(), QStringLiteral("running"), 20000);
}

void TestSchedulesPanel::aFailingRunCountsInARow()
{
    QPointer<ui::schedules::ScheduleDialog> dialog = m_panel->openEditDialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->everyEdit()->text(), QStringLiteral("1h"));
    dialog->commandEdit()->setPlainText(QStringLiteral("echo broken >&2; exit 3"));
    submit(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog, 15000);
    m_panel->runNowAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->runModel()->rowCount() == 2 &&
                                 runCell(0, RunColumns::StatusColumn) == "failed (exit 3)",
                             30000);
    QTRY_COMPARE_WITH_TIMEOUT(cell(ScheduleColumns::FailuresColumn), QStringLiteral("1"), 10000);
    QCOMPARE(cell(ScheduleColumns::LastStatusColumn), QStringLiteral("failed"));
    // The newest run is followed: its output replaced the one before.
    QTRY_COMPARE_WITH_TIMEOUT(m_panel->outputView()->toPlainText(), QStringLiteral("broken\n"),
                              10000);
    // The older run, picked, shows its own.
    m_panel->runsView()->selectRow(1);
    QCOMPARE(m_panel->outputView()->toPlainText(), QStringLiteral("the answer is 42\n"));
}

void TestSchedulesPanel::disableAndEnable()
{
    m_panel->disableAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(cell(ScheduleColumns::StateColumn), QStringLiteral("disabled"),
                              10000);
    QCOMPARE(cell(ScheduleColumns::NextRunColumn), QStringLiteral("—"));
    QVERIFY(m_panel->enableAction()->isEnabled());
    QVERIFY(!m_panel->disableAction()->isEnabled());
    m_panel->enableAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(cell(ScheduleColumns::StateColumn), QStringLiteral("enabled"), 10000);
    QVERIFY(cell(ScheduleColumns::NextRunColumn).startsWith("in "));
    QCOMPARE(cell(ScheduleColumns::FailuresColumn), QStringLiteral("0")); // switched on: anew
}

void TestSchedulesPanel::editToACronInATimeZone()
{
    QPointer<ui::schedules::ScheduleDialog> dialog = m_panel->openEditDialog();
    QVERIFY(dialog);
    dialog->cronButton()->setChecked(true);
    dialog->cronEdit()->setText(QStringLiteral("0 9 * * 1-5"));
    dialog->timezoneBox()->setCurrentText(QStringLiteral("Europe/Berlin"));
    submit(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(cell(ScheduleColumns::WhenColumn),
                              QStringLiteral("cron 0 9 * * 1-5 (Europe/Berlin)"), 10000);
    // The next run is a weekday at 09:00 in Berlin, whatever the local zone of this machine.
    const int row = m_panel->model()->rowOf(m_panel->selectedScheduleId());
    const QDateTime next = m_panel->model()->scheduleAt(row)->nextRunAt.toTimeZone(
        QTimeZone(QByteArrayLiteral("Europe/Berlin")));
    QCOMPARE(next.time(), QTime(9, 0));
    QVERIFY(next.date().dayOfWeek() <= 5);
}

QTEST_MAIN(TestSchedulesPanel)
#include "tst_schedulespanel.moc"
