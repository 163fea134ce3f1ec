// Many sandboxes at once in the sandbox table, against a real lizard-local: the search box
// (words and metadata key=value) and the status and template filters narrow the rows; the
// selection and the filter survive the table's refresh; Pause and Resume act on every selected
// sandbox; one Kill, confirmed once, ends twenty.
#include "models/sandboxfilter.h"
#include "models/sandboxtablemodel.h"
#include "support/livewindow.h"
#include "support/sandboxpolicy.h"
#include "support/screenshot.h"
#include "ui/sandboxpanel.h"
#include "uidriver.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTableView>

using namespace lizard;

class TestSandboxBulk : public QObject
{
    Q_OBJECT

    lizard::test::LiveWindow m_live;
    QStringList m_red;  // metadata team=red
    QStringList m_blue; // metadata team=blue

    ui::SandboxPanel* panel() const { return m_live.window()->sandboxPanel(); }
    models::SandboxTableModel* table() const { return m_live.window()->sandboxModel(); }
    QStringList shownIds() const
    {
        QStringList ids;
        const QAbstractItemModel* m = panel()->view()->model();
        for (int r = 0; r < m->rowCount(); ++r)
            ids << m->index(r, 0).data(models::SandboxTableModel::SandboxIdRole).toString();
        return ids;
    }
    QString status(const QString& id) const
    {
        const auto got = lizard::test::waitFor<client::SandboxInfo>(
            [&](QObject* ctx, auto done) { return m_live.api().getSandbox(id, ctx, done); });
        return got && got->ok() ? got->value().status : QStringLiteral("gone");
    }
    void select(const QStringList& ids) { panel()->selectSandboxes(ids); }
    static QStringList sorted(QStringList ids)
    {
        ids.sort();
        return ids;
    }

private slots:
    void initTestCase()
    {
        lizard::test::LiveWindow::Options options;
        options.size = QSize(1200, 800);
        const QString failed = m_live.start(options);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        for (int i = 0; i < 20; ++i) {
            client::CreateSandboxRequest req;
            req.size = QStringLiteral("nano");
            req.timeoutMs = 900000;
            req.metadata.insert(QStringLiteral("team"), i < 5 ? "red" : "blue");
            req.metadata.insert(QStringLiteral("task"), QString::number(i));
            QString why;
            const QString id = m_live.createSandbox(req, &why);
            LIZ_REQUIRE_SANDBOX(id, why);
            (i < 5 ? m_red : m_blue) << id;
        }
        QTRY_VERIFY_WITH_TIMEOUT(table()->rowCount() == 20, 15000);
        QCOMPARE(panel()->view()->selectionMode(), QAbstractItemView::ExtendedSelection);
    }

    void cleanupTestCase() { m_live.stop(); }

    void searchAndFiltersNarrowTheRows()
    {
        QTest::keyClicks(panel()->searchBox(), QStringLiteral("team=red"));
        QCOMPARE(sorted(shownIds()), sorted(m_red));
        QCOMPARE(panel()->findChild<QLabel*>(QStringLiteral("sandboxShown"))->text(),
                 QStringLiteral("5 of 20 shown"));
        // Words add up: a part of an id, a metadata value.
        panel()->searchBox()->setText(m_blue.first().mid(3, 8) + QStringLiteral(" blue"));
        QCOMPARE(shownIds(), QStringList{m_blue.first()});
        panel()->searchBox()->setText(QStringLiteral("task=7"));
        QCOMPARE(shownIds(), QStringList{m_blue.at(2)});
        panel()->searchBox()->clear();
        QCOMPARE(shownIds().size(), 20);
        QVERIFY(panel()->findChild<QLabel*>(QStringLiteral("sandboxShown"))->text().isEmpty());
        // The menus offer what the project has.
        QComboBox* statuses = panel()->statusFilter();
        QComboBox* templates = panel()->templateFilter();
        QVERIFY(statuses->findData(QStringLiteral("running")) > 0);
        QVERIFY(templates->findData(QStringLiteral("base")) > 0);
        templates->setCurrentIndex(templates->findData(QStringLiteral("base")));
        QCOMPARE(shownIds().size(), 20);
        statuses->setCurrentIndex(statuses->findData(QStringLiteral("running")));
        QCOMPARE(shownIds().size(), 20);
        templates->setCurrentIndex(0);
        statuses->setCurrentIndex(0);
    }

    void selectionAndFilterSurviveARefresh()
    {
        panel()->searchBox()->setText(QStringLiteral("team=blue"));
        panel()->view()->selectAll();
        QCOMPARE(sorted(panel()->selectedSandboxIds()), sorted(m_blue));
        QSignalSpy refreshed(table(), &models::PolledTableModel::refreshed);
        table()->refresh();
        QVERIFY(refreshed.wait(10000));
        QCOMPARE(panel()->searchBox()->text(), QStringLiteral("team=blue"));
        QCOMPARE(sorted(panel()->selectedSandboxIds()), sorted(m_blue));
        QVERIFY(panel()->killAction()->isEnabled());
        // Snapshot and Fork are for one sandbox.
        QVERIFY(!panel()->snapshotAction()->isEnabled());
        QVERIFY(!panel()->forkAction()->isEnabled());
        panel()->searchBox()->clear();
    }

    void pauseAndResumeEverySelected()
    {
        select(m_red);
        QCOMPARE(sorted(panel()->selectedSandboxIds()), sorted(m_red));
        QVERIFY(panel()->pauseAction()->isEnabled());
        panel()->pauseAction()->trigger();
        for (const QString& id : std::as_const(m_red))
            QTRY_COMPARE_WITH_TIMEOUT(status(id), QStringLiteral("paused"), 30000);
        QCOMPARE(status(m_blue.first()), QStringLiteral("running")); // the control
        // The status filter finds them.
        QComboBox* statuses = panel()->statusFilter();
        QTRY_VERIFY_WITH_TIMEOUT(statuses->findData(QStringLiteral("paused")) > 0, 10000);
        statuses->setCurrentIndex(statuses->findData(QStringLiteral("paused")));
        QTRY_COMPARE_WITH_TIMEOUT(sorted(shownIds()), sorted(m_red), 10000);
        QCOMPARE(panel()->shownText(), QStringLiteral("5 of 20 shown"));
        QVERIFY(panel()->findChild<QLabel*>(QStringLiteral("sandboxShown"))->isVisible());
        QTRY_VERIFY(panel()->findChild<QLabel*>(QStringLiteral("sandboxShown"))->width() > 40);
        lizard::test::saveScreenshot(m_live.window(), QStringLiteral("sandboxes-filtered"));
        panel()->view()->selectAll();
        QTRY_VERIFY(panel()->resumeAction()->isEnabled());
        panel()->resumeAction()->trigger();
        statuses->setCurrentIndex(0);
        for (const QString& id : std::as_const(m_red))
            QTRY_COMPARE_WITH_TIMEOUT(status(id), QStringLiteral("running"), 30000);
    }

    void oneKillEndsTwenty() // last: it ends them all
    {
        panel()->view()->selectAll();
        QCOMPARE(panel()->selectedSandboxIds().size(), 20);
        QString asked;
        lizard::test::whenModal<QMessageBox>(this, [&asked](QMessageBox* box) {
            asked = box->text();
            box->button(QMessageBox::Yes)->click();
        });
        panel()->killAction()->trigger();
        QVERIFY2(asked.contains("Kill these 20 sandboxes") && asked.contains("and 12 more"),
                 qPrintable(asked));
        for (const QString& id : m_red + m_blue)
            QTRY_VERIFY_WITH_TIMEOUT(status(id) != QLatin1String("running"), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(table()->rowCount(), 0, 15000);
    }
};

QTEST_MAIN(TestSandboxBulk)
#include "tst_sandboxbulk.moc"
