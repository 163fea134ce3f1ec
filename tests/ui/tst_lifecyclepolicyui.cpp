// Lifecycle policies in the app, against a real lizard-local: New sandbox… sends "at the end"
// and "pause when unused"; the Lifecycle tab shows the selected sandbox's countdown and policy
// and changes it; a sandbox of an open console that ends within 5 minutes is warned of (the
// window's strip, as there is no tray offscreen) and Extend gives it 30 minutes, while one
// whose policy pauses it at its end is not warned of; Sandbox ▸ Clean up… lists what is left
// in every project, oldest first, and kills the selected ones.
#include "models/lifecycle/cleanuplist.h"
#include "models/lifecycle/endwatch.h"
#include "models/sandboxtablemodel.h"
#include "support/livewindow.h"
#include "support/sandboxpolicy.h"
#include "support/screenshot.h"
#include "ui/consolearea.h"
#include "ui/createsandboxdialog.h"
#include "ui/lifecycle/cleanupdialog.h"
#include "ui/lifecycle/endwarningstrip.h"
#include "ui/lifecycle/lifecyclecontroller.h"
#include "ui/lifecycle/lifecyclepanel.h"
#include "ui/sandboxpanel.h"
#include "uidriver.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>

using namespace lizard;

class TestLifecyclePolicyUi : public QObject
{
    Q_OBJECT

    lizard::test::LiveWindow m_live;
    ui::lifecycle::LifecycleController* m_lifecycle = nullptr;
    QString m_created; // by New sandbox…: pause at the end, pause after 15 min unused

    client::SandboxInfo serverInfo(const QString& id) const
    {
        const auto got = lizard::test::waitFor<client::SandboxInfo>(
            [&](QObject* ctx, auto done) { return m_live.api().getSandbox(id, ctx, done); });
        return got && got->ok() ? got->value() : client::SandboxInfo{};
    }
    QString startLifecycleSandbox(qint64 timeoutMs, const QString& onTimeout,
                                  const QString& projectId = {})
    {
        client::CreateSandboxRequest req;
        req.size = QStringLiteral("nano");
        req.timeoutMs = timeoutMs;
        req.onTimeout = onTimeout;
        req.projectId = projectId;
        QString why;
        const QString id = m_live.createSandbox(req, &why);
        if (id.isEmpty())
            qWarning().noquote() << "no sandbox:" << why;
        return id;
    }
    void showLifecycleTab() { m_live.window()->toolTabs()->setCurrentWidget(m_lifecycle->panel()); }

private slots:
    void initTestCase()
    {
        lizard::test::LiveWindow::Options options;
        options.size = QSize(1200, 820);
        const QString failed = m_live.start(options);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        m_lifecycle =
            new ui::lifecycle::LifecycleController(m_live.window()->workbench(), m_live.window());
    }

    void cleanupTestCase() { m_live.stop(); }

    void createDialogSendsThePolicies()
    {
        ui::CreateSandboxDialog dialog(m_live.window()->sandboxActions(), m_live.defaultProjectId(),
                                       m_live.window());
        dialog.sizeBox()->setCurrentIndex(dialog.sizeBox()->findData(QStringLiteral("nano")));
        dialog.lifetimeBox()->setValue(10);
        QCOMPARE(dialog.onTimeoutBox()->currentData().toString(), QStringLiteral("kill"));
        QCOMPARE(dialog.idlePauseBox()->text(), QStringLiteral("never"));
        dialog.onTimeoutBox()->setCurrentIndex(
            dialog.onTimeoutBox()->findData(QStringLiteral("pause")));
        dialog.idlePauseBox()->setValue(15);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        lizard::test::saveScreenshot(dialog.grab(), QStringLiteral("lifecycle-create"));
        QTest::mouseClick(dialog.buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY2_WITH_TIMEOUT(!dialog.created().sandboxId.isEmpty(),
                                  qPrintable(dialog.errorText()), 120000);
        QVERIFY(!dialog.isVisible()); // closed once created
        m_created = dialog.created().sandboxId;
        m_live.killOnStop(m_created);
        const client::SandboxInfo info = serverInfo(m_created);
        QCOMPARE(info.onTimeout, QStringLiteral("pause"));
        QCOMPARE(info.idlePauseMinutes, 15);
        QCOMPARE(info.timeoutMs, qint64(600000));
    }

    void tabShowsAndChangesThePolicy()
    {
        QVERIFY(!m_created.isEmpty());
        ui::lifecycle::LifecyclePanel* panel = m_lifecycle->panel();
        m_live.window()->sandboxPanel()->selectSandbox(m_created);
        showLifecycleTab();
        QTRY_COMPARE(panel->onTimeoutBox()->currentData().toString(), QStringLiteral("pause"));
        QCOMPARE(panel->idleBox()->value(), 15);
        QVERIFY(!panel->applyButton()->isEnabled());
        // A countdown from 10 minutes, ticking.
        static const QRegularExpression clock(QStringLiteral("^(9|10):\\d\\d$"));
        QTRY_VERIFY2(clock.match(panel->countdownLabel()->text()).hasMatch(),
                     qPrintable(panel->countdownLabel()->text()));
        const QString first = panel->countdownLabel()->text();
        QTRY_VERIFY_WITH_TIMEOUT(panel->countdownLabel()->text() != first, 3000);
        QVERIFY2(panel->stateLabel()->text().contains(QStringLiteral("paused after 15 min")),
                 qPrintable(panel->stateLabel()->text()));
        lizard::test::saveScreenshot(m_live.window()->grab(), QStringLiteral("lifecycle-tab"));

        // Changed in the tab, applied on the server.
        panel->onTimeoutBox()->setCurrentIndex(
            panel->onTimeoutBox()->findData(QStringLiteral("kill")));
        panel->idleBox()->setValue(0);
        QCOMPARE(panel->idleBox()->text(), QStringLiteral("never"));
        QVERIFY(panel->applyButton()->isEnabled());
        QTest::mouseClick(panel->applyButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(serverInfo(m_created).onTimeout == QStringLiteral("kill"), 10000);
        QCOMPARE(serverInfo(m_created).idlePauseMinutes, 0);
        QTRY_VERIFY(!panel->applyButton()->isEnabled());
        QTRY_COMPARE(panel->stateLabel()->text(), QStringLiteral("running"));
    }

    void warnedFiveMinutesBeforeTheEnd()
    {
        // Both end in 4 minutes; one is killed then, the other paused (nothing is lost).
        const QString ending = startLifecycleSandbox(240000, {});
        const QString pausing = startLifecycleSandbox(240000, QStringLiteral("pause"));
        QVERIFY(!ending.isEmpty() && !pausing.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(m_live.window()->sandboxModel()->rowOf(pausing) >= 0, 10000);
        // Selecting a sandbox opens its console: they are worked on now.
        for (const QString& id : {ending, pausing})
            m_live.window()->sandboxPanel()->selectSandbox(id);
        QTRY_VERIFY(m_live.window()->consoleArea()->sandboxIds().contains(pausing));
        QTRY_VERIFY_WITH_TIMEOUT(m_lifecycle->warningFor(ending) != nullptr, 10000);
        ui::lifecycle::EndWarningStrip* strip = m_lifecycle->warningFor(ending);
        QTRY_VERIFY(strip->isVisible());
        QVERIFY2(strip->text().contains(
                     QStringLiteral("Sandbox %1 (its console) ends in 3:").arg(ending)),
                 qPrintable(strip->text()));
        QVERIFY(strip->text().contains(QStringLiteral("killed then")));
        // The other one was read and is not warned of.
        client::SandboxInfo read;
        QTRY_VERIFY(m_lifecycle->endWatch()->info(pausing, &read));
        QCOMPARE(read.onTimeout, QStringLiteral("pause"));
        QVERIFY(m_lifecycle->warningFor(pausing) == nullptr);
        QCOMPARE(m_lifecycle->endWatch()->warnedIds(), QStringList{ending});
        lizard::test::saveScreenshot(m_live.window()->grab(), QStringLiteral("lifecycle-warning"));

        // Extend: 30 minutes from now, and the warning goes.
        QTest::mouseClick(strip->extendButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(m_lifecycle->warningFor(ending) == nullptr, 10000);
        const QDateTime endAt = serverInfo(ending).endAt;
        QVERIFY2(endAt > QDateTime::currentDateTimeUtc().addSecs(29 * 60),
                 qPrintable(endAt.toString(Qt::ISODate)));
        QVERIFY(m_lifecycle->endWatch()->warnedIds().isEmpty());
        // Its deadline would pause it during the next case.
        lizard::test::killSandbox(m_live.api(), pausing);
    }

    void cleanUpListsEveryProjectOldestFirst()
    {
        const auto project = lizard::test::waitFor<client::Project>([&](QObject* ctx, auto done) {
            return m_live.api().createProject(QStringLiteral("cleanup-elsewhere"), ctx, done);
        });
        QVERIFY(project && project->ok());
        const QString elsewhere = startLifecycleSandbox(600000, {}, project->value().id);
        QVERIFY(!elsewhere.isEmpty());
        const auto paused = lizard::test::waitFor<client::Unit>([&](QObject* ctx, auto done) {
            return m_live.api().pauseSandbox(elsewhere, ctx, done);
        });
        QVERIFY(paused && paused->ok());
        QTRY_VERIFY_WITH_TIMEOUT(serverInfo(elsewhere).status == QStringLiteral("paused"), 30000);

        QAction* open = lizard::test::menuAction(m_live.window(), QStringLiteral("Sandbox"),
                                                 QStringLiteral("Clean up"));
        QVERIFY(open != nullptr);
        open->trigger();
        ui::lifecycle::CleanupDialog* dialog = m_lifecycle->cleanupDialog();
        QVERIFY(dialog != nullptr);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QAbstractItemModel* rows = dialog->view()->model();
        QTRY_COMPARE_WITH_TIMEOUT(rows->rowCount(), 3, 10000);
        QStringList ids;
        QDateTime previous;
        for (int r = 0; r < rows->rowCount(); ++r) {
            ids << rows->index(r, 0).data(models::CleanupListModel::SandboxIdRole).toString();
            const QDateTime started =
                rows->index(r, 0).data(models::CleanupListModel::StartedAtRole).toDateTime();
            QVERIFY(!previous.isValid() || previous <= started);
            previous = started;
        }
        QCOMPARE(ids.first(), m_created); // the oldest
        QCOMPARE(ids.last(), elsewhere);  // the newest
        const int last = rows->rowCount() - 1;
        using Col = models::CleanupListModel::Column;
        QCOMPARE(rows->index(last, Col::ProjectColumn).data().toString(),
                 QStringLiteral("cleanup-elsewhere"));
        QCOMPARE(rows->index(last, Col::StatusColumn).data().toString(),
                 QStringLiteral("paused (by you)"));
        QCOMPARE(rows->index(last, Col::SizeColumn).data().toString().section(" · ", 0, 0),
                 QStringLiteral("nano"));
        QCOMPARE(rows->index(0, Col::ProjectColumn).data().toString(), QStringLiteral("default"));
        QVERIFY2(dialog->summaryText().startsWith(QStringLiteral("3 left (2 running, 1 paused)")),
                 qPrintable(dialog->summaryText()));
        QVERIFY(!dialog->killButton()->isEnabled());
        lizard::test::saveScreenshot(dialog->grab(), QStringLiteral("lifecycle-cleanup"));

        // The two newest, killed with one confirmed click.
        dialog->view()->selectRow(last - 1);
        dialog->view()->selectionModel()->select(
            rows->index(last, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QCOMPARE(dialog->selectedSandboxIds(), (QStringList{ids.at(last - 1), elsewhere}));
        QCOMPARE(dialog->killButton()->text(), QStringLiteral("Kill 2 selected…"));
        bool asked = false;
        lizard::test::whenModal<QMessageBox>(this, [&asked](QMessageBox* box) {
            asked = box->text().startsWith(QStringLiteral("Kill 2 sandboxes?"));
            box->button(QMessageBox::Yes)->click();
        });
        QTest::mouseClick(dialog->killButton(), Qt::LeftButton);
        QVERIFY(asked);
        QTRY_COMPARE_WITH_TIMEOUT(rows->rowCount(), 1, 30000);
        QCOMPARE(serverInfo(elsewhere).sandboxId, QString()); // gone
        QTRY_VERIFY(dialog->findChild<QLabel*>(QStringLiteral("cleanupResult"))
                        ->text()
                        .startsWith(QStringLiteral("Killed 2.")));
        QVERIFY(dialog->summaryText().startsWith(QStringLiteral("1 left (1 running, 0 paused)")));
        dialog->close();
    }
};

QTEST_MAIN(TestLifecyclePolicyUi)
#include "tst_lifecyclepolicyui.moc"
