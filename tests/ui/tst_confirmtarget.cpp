// A confirmation acts on what was selected when it opened. Each test selects one item, opens the
// action's dialog, and while the dialog is up selects another item and lets the table's poll
// refresh the model (as the 2 s timer does); then it accepts. The action must hit the first
// item and leave the second alone. Against a real lizard-local.
#include "models/sandboxtablemodel.h"
#include "models/snapshotlistmodel.h"
#include "models/volumelistmodel.h"
#include "support/apiwait.h"
#include "support/livewindow.h"
#include "support/localserver.h"
#include "ui/forkdialog.h"
#include "ui/mainwindow.h"
#include "ui/projectpanel.h"
#include "ui/projecttabs.h"
#include "ui/sandboxpanel.h"
#include "ui/snapshotsview.h"
#include "ui/volumesview.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QInputDialog>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace lizard;

class TestConfirmTarget : public QObject
{
    Q_OBJECT
private:
    QString m_projectId;
    QString m_a; // the sandbox selected when a dialog opens
    QString m_b; // the one selected while it is open
    lizard::test::LiveWindow m_live;

    ui::SandboxPanel* panel() const { return m_live.window()->sandboxPanel(); }
    models::SandboxTableModel* table() const { return m_live.window()->sandboxModel(); }

    QString createSandbox()
    {
        QString why;
        const QString id = m_live.createSandbox(900000, &why);
        if (id.isEmpty())
            qWarning().noquote() << "create sandbox:" << why;
        return id;
    }
    client::SandboxInfo sandbox(const QString& id) const
    {
        const auto got = lizard::test::waitFor<client::SandboxInfo>(
            [&](QObject* ctx, auto done) { return m_live.api().getSandbox(id, ctx, done); });
        return got && got->ok() ? got->value() : client::SandboxInfo{};
    }
    // Runs `whileOpen` once a dialog of type T is shown (modal or not), then `answer` on it.
    template <class T>
    void whenShown(std::function<void()> whileOpen, std::function<void(T*)> answer)
    {
        auto* poll = new QTimer(this);
        poll->setInterval(20);
        connect(poll, &QTimer::timeout, this, [=] {
            T* dialog = nullptr;
            for (QWidget* w : QApplication::topLevelWidgets())
                if (auto* d = qobject_cast<T*>(w); d && d->isVisible())
                    dialog = d;
            if (!dialog)
                return;
            poll->stop();
            poll->deleteLater();
            whileOpen();
            answer(dialog);
        });
        poll->start();
    }
    // Another row selected and the model refreshed from the server while the dialog is open.
    void switchSandbox()
    {
        panel()->selectSandbox(m_b);
        QCOMPARE(panel()->currentSandboxId(), m_b);
        QSignalSpy refreshed(table(), &models::SandboxTableModel::refreshed);
        table()->refresh();
        QVERIFY(refreshed.wait(10000));
        QCOMPARE(panel()->currentSandboxId(), m_b);
    }
    static void clickYes(QMessageBox* box) { box->button(QMessageBox::Yes)->click(); }

private slots:
    void initTestCase()
    {
        const QString failed = m_live.start();
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        m_projectId = m_live.defaultProjectId();
        m_a = createSandbox();
        m_b = createSandbox();
        QVERIFY(!m_a.isEmpty() && !m_b.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(table()->rowOf(m_a) >= 0 && table()->rowOf(m_b) >= 0, 10000);
    }

    void cleanupTestCase() { m_live.stop(); }

    void extendLifetime()
    {
        const QDateTime endA = sandbox(m_a).endAt;
        const QDateTime endB = sandbox(m_b).endAt;
        panel()->selectSandbox(m_a);
        whenShown<QInputDialog>([this] { switchSandbox(); },
                                [](QInputDialog* ask) {
                                    ask->setIntValue(600); // ten hours: far beyond the 15 min given
                                    ask->accept();
                                });
        panel()->extendAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(sandbox(m_a).endAt > endA.addSecs(3600), 10000);
        QCOMPARE(sandbox(m_b).endAt, endB);
    }

    void snapshotName()
    {
        panel()->selectSandbox(m_a);
        QSignalSpy messages(panel(), &ui::SandboxPanel::message);
        whenShown<QInputDialog>([this] { switchSandbox(); },
                                [](QInputDialog* ask) {
                                    ask->setTextValue("taken from a");
                                    ask->accept();
                                });
        panel()->snapshotAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 30000);
        const auto list =
            lizard::test::waitFor<QList<client::Snapshot>>([&](QObject* ctx, auto done) {
                return m_live.api().listSnapshots(m_projectId, ctx, done);
            });
        QVERIFY(list && list->ok());
        QString source;
        for (const client::Snapshot& s : list->value())
            if (s.name == "taken from a")
                source = s.sourceSandboxId;
        QCOMPARE(source, m_a);
    }

    void fork()
    {
        panel()->selectSandbox(m_a);
        QSignalSpy messages(panel(), &ui::SandboxPanel::message);
        whenShown<ui::ForkDialog>([this] { switchSandbox(); },
                                  [](ui::ForkDialog* dialog) { dialog->accept(); });
        panel()->forkAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 120000);
        const QString said = messages.last().at(0).toString();
        QVERIFY2(said.startsWith("Forked " + m_a + " into "), qPrintable(said));
        for (const QString& id : said.section(" into ", 1).split(", "))
            m_live.killOnStop(id);
    }

    void deleteVolume()
    {
        models::VolumeListModel* volumes = m_live.window()->projectTabs()->volumeModel();
        ui::VolumesView* view = m_live.window()->projectTabs()->volumesView();
        m_live.window()->projectTabs()->setCurrentIndex(ui::ProjectTabs::VolumesTab);
        QStringList ids;
        for (const QString name : {"first", "second"}) {
            const auto made = lizard::test::waitFor<client::Volume>([&](QObject* ctx, auto done) {
                return m_live.api().createVolume(m_projectId, name, 1, ctx, done);
            });
            QVERIFY(made && made->ok());
            ids << made->value().id;
        }
        volumes->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(volumes->rowOf(ids[0]) >= 0 && volumes->rowOf(ids[1]) >= 0, 10000);
        view->selectVolume(ids[0]);
        whenShown<QMessageBox>(
            [&] {
                view->selectVolume(ids[1]);
                QSignalSpy refreshed(volumes, &models::PolledTableModel::refreshed);
                volumes->refresh();
                QVERIFY(refreshed.wait(10000));
            },
            clickYes);
        view->deleteAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(volumes->rowOf(ids[0]) < 0, 10000);
        QTest::qWait(300);
        volumes->refresh();
        QTest::qWait(300);
        QVERIFY(volumes->rowOf(ids[1]) >= 0);
        m_live.window()->projectTabs()->setCurrentIndex(ui::ProjectTabs::SandboxesTab);
    }

    void deleteSnapshot()
    {
        models::SnapshotListModel* snaps = m_live.window()->projectTabs()->snapshotModel();
        ui::SnapshotsView* view = m_live.window()->projectTabs()->snapshotsView();
        QStringList ids;
        for (const QString name : {"keep me", "delete me"}) {
            const auto made = lizard::test::waitFor<client::Snapshot>(
                [&](QObject* ctx, auto done) {
                    return m_live.api().createSnapshot(m_b, name, ctx, done);
                },
                120000);
            QVERIFY(made && made->ok());
            ids.prepend(made->value().id); // ids[0]: "delete me"
        }
        m_live.window()->projectTabs()->setCurrentIndex(ui::ProjectTabs::SnapshotsTab);
        snaps->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(snaps->rowOf(ids[0]) >= 0 && snaps->rowOf(ids[1]) >= 0, 10000);
        view->selectSnapshot(ids[0]);
        QTRY_VERIFY(view->deleteAction()->isEnabled());
        whenShown<QMessageBox>(
            [&] {
                view->selectSnapshot(ids[1]);
                QSignalSpy refreshed(snaps, &models::PolledTableModel::refreshed);
                snaps->refresh();
                QVERIFY(refreshed.wait(10000));
            },
            clickYes);
        view->deleteAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(snaps->rowOf(ids[0]) < 0, 30000);
        const auto kept = lizard::test::waitFor<client::Snapshot>(
            [&](QObject* ctx, auto done) { return m_live.api().getSnapshot(ids[1], ctx, done); });
        QVERIFY(kept && kept->ok());
        m_live.window()->projectTabs()->setCurrentIndex(ui::ProjectTabs::SandboxesTab);
    }

    void kill() // last: it ends m_a
    {
        panel()->selectSandbox(m_a);
        whenShown<QMessageBox>([this] { switchSandbox(); }, clickYes);
        panel()->killAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(sandbox(m_a).status != "running", 30000);
        QCOMPARE(sandbox(m_b).status, QString("running"));
        QTRY_VERIFY_WITH_TIMEOUT(table()->rowOf(m_a) < 0, 10000);
        QCOMPARE(panel()->currentSandboxId(), m_b);
    }
};

QTEST_MAIN(TestConfirmTarget)
#include "tst_confirmtarget.moc"
