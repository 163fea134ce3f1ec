// The lifecycle buttons and views against a real lizard-local: Pause and Resume from the
// toolbar change the status shown in the table and which buttons are enabled; Snapshot… puts a
// snapshot in the Snapshots tab, Restore starts a sandbox from it; Fork… ×2 adds and selects
// the copies; the Volumes tab creates and grows a volume.
#include "models/sandboxtablemodel.h"
#include "models/snapshotlistmodel.h"
#include "models/volumelistmodel.h"
#include "support/apiwait.h"
#include "support/livewindow.h"
#include "support/localserver.h"
#include "support/sandboxpolicy.h"
#include "ui/bannerwidget.h"
#include "ui/forkdialog.h"
#include "ui/mainwindow.h"
#include "ui/newvolumedialog.h"
#include "ui/projectpanel.h"
#include "ui/projecttabs.h"
#include "ui/sandboxpanel.h"
#include "ui/snapshotsview.h"
#include "ui/volumesview.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QInputDialog>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>
#include <QToolBar>
#include <QToolButton>

using namespace lizard;

class TestLifecycleUi : public QObject
{
    Q_OBJECT
private:
    QString m_sandboxId;
    lizard::test::LiveWindow m_live;

    ui::SandboxPanel* panel() const { return m_live.window()->sandboxPanel(); }
    models::SandboxTableModel* table() const { return m_live.window()->sandboxModel(); }
    QString statusShown(const QString& id) const
    {
        const int row = table()->rowOf(id);
        return row < 0 ? QString() : table()->index(row, 3).data().toString();
    }
    // Clicks the toolbar button of an action, as a user would.
    void click(QAction* action) const
    {
        QVERIFY(action->isEnabled());
        QWidget* button = nullptr;
        for (QToolBar* bar : m_live.window()->findChildren<QToolBar*>())
            if (bar->actions().contains(action))
                button = bar->widgetForAction(action);
        QVERIFY(button != nullptr);
        QTest::mouseClick(button, Qt::LeftButton);
    }
    // The banner's text once it shows an error about `what` ("Pause sandbox"), else empty.
    QString bannerError(const QString& what, int ms = 3000) const
    {
        const auto* b = m_live.window()->banner();
        const bool shown = lizard::test::waitUntil(
            [&] {
                return b->isVisible() && b->kind() == ui::BannerWidget::Kind::Error &&
                       b->text().contains(what);
            },
            ms);
        return shown ? b->text() : QString();
    }
    template <class T> T* waitForChild(const QString& objectName = {})
    {
        T* found = nullptr;
        for (int i = 0; i < 200 && found == nullptr; ++i) {
            for (T* c : m_live.window()->findChildren<T*>())
                if (c->isVisible() && (objectName.isEmpty() || c->objectName() == objectName))
                    found = c;
            if (found == nullptr)
                QTest::qWait(20);
        }
        return found;
    }

private slots:
    void initTestCase()
    {
        const QString failed = m_live.start();
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        QString why;
        m_sandboxId = m_live.createSandbox(900000, &why);
        LIZ_REQUIRE_SANDBOX(m_sandboxId, why);
        QTRY_VERIFY_WITH_TIMEOUT(table()->rowOf(m_sandboxId) >= 0, 10000);
        panel()->selectSandbox(m_sandboxId);
        QCOMPARE(panel()->currentSandboxId(), m_sandboxId);
    }

    void cleanupTestCase() { m_live.stop(); }

    void buttonsFollowTheStatus()
    {
        QTRY_COMPARE(statusShown(m_sandboxId), QString("running"));
        QTRY_VERIFY(panel()->pauseAction()->isEnabled());
        QVERIFY(!panel()->resumeAction()->isEnabled());
        QVERIFY(panel()->snapshotAction()->isEnabled());
        QVERIFY(panel()->forkAction()->isEnabled());
        QVERIFY(panel()->killAction()->isEnabled());
        // On the sandbox toolbar (the context menu shows the same actions).
        QVERIFY(panel()->findChild<QToolBar*>()->actions().contains(panel()->pauseAction()));
    }

    void pauseAndResumeFromTheToolbar()
    {
        click(panel()->pauseAction());
        // While the call runs the row says so and the buttons wait.
        const QString failed = bannerError("Pause sandbox", 1500);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        QTRY_COMPARE_WITH_TIMEOUT(statusShown(m_sandboxId), QString("paused"), 15000);
        QTRY_VERIFY(panel()->resumeAction()->isEnabled());
        QVERIFY(!panel()->pauseAction()->isEnabled());
        QVERIFY(!panel()->forkAction()->isEnabled());
        QVERIFY(panel()->killAction()->isEnabled());

        click(panel()->resumeAction());
        QTRY_COMPARE_WITH_TIMEOUT(statusShown(m_sandboxId), QString("running"), 15000);
        QTRY_VERIFY(panel()->pauseAction()->isEnabled());
        QVERIFY(!panel()->resumeAction()->isEnabled());
        const auto ran = lizard::test::waitFor<client::ExecResult>([&](QObject* ctx, auto done) {
            return m_live.api().exec(m_sandboxId, "echo alive", {}, ctx, done);
        });
        QVERIFY(ran && ran->ok());
        QCOMPARE(ran->value().stdoutText, QString("alive\n"));
    }

    void snapshotAndRestoreFromTheViews()
    {
        const auto wrote = lizard::test::waitFor<client::Unit>([&](QObject* ctx, auto done) {
            return m_live.api().writeFile(m_sandboxId, "/home/user/ui.txt", "restored", ctx, done);
        });
        QVERIFY(wrote && wrote->ok());
        click(panel()->snapshotAction());
        auto* ask = waitForChild<QInputDialog>("snapshotNameDialog");
        QVERIFY(ask);
        ask->setTextValue("ui snapshot");
        ask->accept();
        const QString failed = bannerError("Snapshot sandbox", 1500);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));

        models::SnapshotListModel* snaps = m_live.window()->projectTabs()->snapshotModel();
        QTRY_VERIFY_WITH_TIMEOUT(snaps->rowCount() == 1, 15000);
        QCOMPARE(snaps->index(0, models::SnapshotColumn::Name).data().toString(),
                 QString("ui snapshot"));
        QCOMPARE(snaps->index(0, models::SnapshotColumn::Source).data().toString(), m_sandboxId);
        QTRY_COMPARE_WITH_TIMEOUT(snaps->snapshotAt(0).status, QString("ready"), 60000);

        m_live.window()->projectTabs()->setCurrentIndex(ui::ProjectTabs::SnapshotsTab);
        ui::SnapshotsView* view = m_live.window()->projectTabs()->snapshotsView();
        view->selectSnapshot(snaps->snapshotAt(0).id);
        QTRY_VERIFY(view->restoreAction()->isEnabled());
        QSignalSpy restored(view, &ui::SnapshotsView::restored);
        click(view->restoreAction());
        QTRY_COMPARE_WITH_TIMEOUT(restored.count(), 1, 60000);
        const QString copy = restored.at(0).at(0).value<client::SandboxInfo>().sandboxId;
        m_live.killOnStop(copy);
        // The new sandbox is shown selected in the Sandboxes tab, with the snapshot's files.
        QCOMPARE(m_live.window()->projectTabs()->currentIndex(),
                 int(ui::ProjectTabs::SandboxesTab));
        QTRY_COMPARE(panel()->currentSandboxId(), copy);
        const auto read = lizard::test::waitFor<QByteArray>([&](QObject* ctx, auto done) {
            return m_live.api().readFile(copy, "/home/user/ui.txt", ctx, done);
        });
        QVERIFY(read && read->ok());
        QCOMPARE(read->value(), QByteArray("restored"));
    }

    void forkTwoFromTheDialog()
    {
        panel()->selectSandbox(m_sandboxId);
        QTRY_VERIFY(panel()->forkAction()->isEnabled());
        click(panel()->forkAction());
        auto* dialog = waitForChild<ui::ForkDialog>();
        QVERIFY(dialog);
        dialog->countBox()->setValue(2);
        dialog->lifetimeBox()->setValue(10);
        QSignalSpy forked(dialog, &ui::ForkDialog::forked);
        QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(forked.count() == 1 || !dialog->errorText().isEmpty(), 120000);
        QCOMPARE(forked.count(), 1); // (the dialog is gone once it forked: do not read it here)
        const auto copies = forked.at(0).at(0).value<QList<client::SandboxInfo>>();
        QCOMPARE(copies.size(), 2);
        for (const auto& c : copies) {
            m_live.killOnStop(c.sandboxId);
            QVERIFY(table()->rowOf(c.sandboxId) >= 0); // in the list at once
        }
        // Both copies are selected, the first is current.
        QCOMPARE(panel()->currentSandboxId(), copies.at(0).sandboxId);
        QCOMPARE(panel()->view()->selectionModel()->selectedRows().size(), 2);
        QVERIFY(statusShown(m_sandboxId).startsWith("running")); // the source keeps running
    }

    void volumesViewCreatesAndGrows()
    {
        m_live.window()->projectTabs()->setCurrentIndex(ui::ProjectTabs::VolumesTab);
        ui::VolumesView* view = m_live.window()->projectTabs()->volumesView();
        models::VolumeListModel* volumes = m_live.window()->projectTabs()->volumeModel();
        QTRY_VERIFY(view->createAction()->isEnabled());
        click(view->createAction());
        auto* dialog = waitForChild<ui::NewVolumeDialog>();
        QVERIFY(dialog);
        QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QVERIFY(dialog->errorText().contains("name")); // an empty name is caught here
        dialog->nameEdit()->setText("ui-scratch");
        dialog->sizeBox()->setValue(1);
        QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(volumes->rowCount() == 1 || !dialog->errorText().isEmpty(), 30000);
        QCOMPARE(volumes->rowCount(), 1);
        QCOMPARE(volumes->index(0, models::VolumeColumn::Name).data().toString(),
                 QString("ui-scratch"));
        QTRY_COMPARE(view->currentVolumeId(), volumes->volumeAt(0).id);

        view->growVolume(volumes->volumeAt(0).id, 2);
        QTRY_COMPARE_WITH_TIMEOUT(volumes->volumeAt(0).sizeGb, 2, 30000);
        QVERIFY(volumes->index(0, models::VolumeColumn::Size).data().toString().startsWith("2 GB"));
        view->deleteVolume(volumes->volumeAt(0).id);
        QTRY_COMPARE_WITH_TIMEOUT(volumes->rowCount(), 0, 30000);
        m_live.window()->projectTabs()->setCurrentIndex(ui::ProjectTabs::SandboxesTab);
    }
};

QTEST_MAIN(TestLifecycleUi)
#include "tst_lifecycleui.moc"
