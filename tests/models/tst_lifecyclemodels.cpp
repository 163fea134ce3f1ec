// Lifecycle models without a server: the snapshot and volume tables apply fresh lists
// as minimal row changes (QAbstractItemModelTester watching), show what the app is doing in the
// status column; the state rules say which action fits which status; sizes and 429 texts.
#include "models/sandboxstaterules.h"
#include "models/sizeformat.h"
#include "models/snapshotlistmodel.h"
#include "models/volumelistmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace lizard;
using client::Snapshot;
using client::Volume;
using models::SandboxAction;

namespace {
Snapshot snap(const QString& id, const QString& status = "ready")
{
    Snapshot s;
    s.id = id;
    s.name = "name " + id;
    s.status = status;
    s.sourceSandboxId = "sb_src";
    s.createdAt = QDateTime::fromString("2026-01-01T10:00:00Z", Qt::ISODate);
    return s;
}
QList<Snapshot> snaps(const QStringList& ids)
{
    QList<Snapshot> out;
    for (const QString& id : ids)
        out << snap(id);
    return out;
}
Volume vol(const QString& id, int sizeGb = 5, const QString& attachedTo = {})
{
    Volume v;
    v.id = id;
    v.name = "vol-" + id;
    v.sizeGb = sizeGb;
    v.status = "ready";
    v.attachedTo = attachedTo;
    return v;
}
QStringList ids(const QAbstractItemModel& model, int role)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out << model.index(row, 0).data(role).toString();
    return out;
}
} // namespace

class TestLifecycleModels : public QObject
{
    Q_OBJECT
private slots:
    void snapshotsApply_data()
    {
        QTest::addColumn<QStringList>("before");
        QTest::addColumn<QStringList>("after");
        QTest::addColumn<int>("insertSignals");
        QTest::addColumn<int>("removeSignals");
        QTest::newRow("same") << QStringList{"a", "b"} << QStringList{"a", "b"} << 0 << 0;
        QTest::newRow("one appears") << QStringList{"a"} << QStringList{"a", "b"} << 1 << 0;
        QTest::newRow("a run goes in one signal")
            << QStringList{"a", "b", "c", "d"} << QStringList{"a", "d"} << 0 << 1;
        QTest::newRow("two separate go")
            << QStringList{"a", "b", "c", "d"} << QStringList{"b", "d"} << 0 << 2;
        QTest::newRow("all replaced") << QStringList{"a", "b"} << QStringList{"c"} << 1 << 1;
        QTest::newRow("empties") << QStringList{"a", "b"} << QStringList{} << 0 << 1;
    }
    void snapshotsApply()
    {
        QFETCH(QStringList, before);
        QFETCH(QStringList, after);
        QFETCH(int, insertSignals);
        QFETCH(int, removeSignals);
        models::SnapshotListModel model(nullptr);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.applySnapshots(snaps(before));
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.applySnapshots(snaps(after));
        QCOMPARE(inserted.count(), insertSignals);
        QCOMPARE(removed.count(), removeSignals);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(ids(model, models::SnapshotListModel::SnapshotIdRole), after);
    }

    void snapshotBuildingToReadyIsOneCellChange()
    {
        models::SnapshotListModel model(nullptr);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.applySnapshots({snap("a"), snap("b", "building")});
        const QModelIndex status = model.index(1, models::SnapshotColumn::Status);
        QCOMPARE(status.data().toString(), QString("building…"));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        Snapshot ready = snap("b", "ready");
        ready.sizeBytes = 100 * 1024 * 1024;
        model.applySnapshots({snap("a"), ready});
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex(),
                 model.index(1, models::SnapshotColumn::Status));
        QCOMPARE(changed.at(0).at(1).toModelIndex(), model.index(1, models::SnapshotColumn::Size));
        QCOMPARE(model.index(1, models::SnapshotColumn::Size).data().toString(), QString("100 MB"));
        QCOMPARE(model.index(0, models::SnapshotColumn::Size).data().toString(), QString("—"));

        Snapshot failed = snap("a", "failed");
        failed.error = "no space left";
        model.applySnapshots({failed, ready});
        QCOMPARE(model.index(0, models::SnapshotColumn::Status).data().toString(),
                 QString("failed: no space left"));
        QCOMPARE(model.index(0, models::SnapshotColumn::Source).data().toString(),
                 QString("sb_src"));
    }

    void snapshotActivityAndAdd()
    {
        models::SnapshotListModel model(nullptr);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.addSnapshot(snap("a", "building"));
        model.addSnapshot(snap("a", "building")); // twice: still one row
        QCOMPARE(model.rowCount(), 1);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setActivity("a", "deleting…");
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.index(0, models::SnapshotColumn::Status).data().toString(),
                 QString("building… · deleting…"));
        QCOMPARE(model.index(0, 0).data(models::SnapshotListModel::ActivityRole).toString(),
                 QString("deleting…"));
        model.setActivity("a", {});
        QCOMPARE(model.index(0, models::SnapshotColumn::Status).data().toString(),
                 QString("building…"));
        model.applySnapshots({});
        QCOMPARE(model.rowCount(), 0);
    }

    void deleteWithoutConnectionFails()
    {
        models::SnapshotListModel model(nullptr);
        std::optional<client::Outcome<client::Unit>> got;
        model.deleteSnapshot("a", this,
                             [&](client::Outcome<client::Unit> o) { got = std::move(o); });
        QVERIFY(got.has_value());
        QVERIFY(!got->ok());
        QCOMPARE(got->error().kind, client::ApiError::Kind::Network);
    }

    void volumesApplyAndCells()
    {
        models::VolumeListModel model(nullptr);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.applyVolumes({vol("1"), vol("2", 10, "sb_x")});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, models::VolumeColumn::AttachedTo).data().toString(), QString("—"));
        QCOMPARE(model.index(1, models::VolumeColumn::AttachedTo).data().toString(),
                 QString("sb_x"));
        QCOMPARE(model.index(1, models::VolumeColumn::Size).data().toString(), QString("10 GB"));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        Volume grown = vol("2", 20, {});
        grown.sizeEnforced = false;
        model.applyVolumes({vol("1"), grown});
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex(), model.index(1, models::VolumeColumn::Size));
        QCOMPARE(changed.at(0).at(1).toModelIndex(),
                 model.index(1, models::VolumeColumn::AttachedTo));
        QCOMPARE(model.index(1, models::VolumeColumn::Size).data().toString(),
                 QString("20 GB (not enforced)"));
        QCOMPARE(model.index(1, 0).data(models::VolumeListModel::SizeGbRole).toInt(), 20);
        model.setActivity("1", "deleting…");
        QCOMPARE(model.index(0, models::VolumeColumn::Status).data().toString(),
                 QString("ready · deleting…"));
        model.applyVolumes({grown});
        QCOMPARE(model.rowCount(), 1);
        QVERIFY(model.activity("1").isEmpty()); // gone with its row
    }

    void volumeCallsNeedAProject()
    {
        models::VolumeListModel model(nullptr);
        std::optional<client::Outcome<Volume>> got;
        model.createVolume("x", 5, this, [&](client::Outcome<Volume> o) { got = std::move(o); });
        QVERIFY(got.has_value());
        QVERIFY(!got->ok());
        QVERIFY(!got->error().message.isEmpty());
    }

    void stateRules_data()
    {
        QTest::addColumn<QString>("status");
        QTest::addColumn<bool>("busy");
        QTest::addColumn<QString>(
            "allowed"); // P pause, R resume, S snapshot, F fork, E extend, K kill
        QTest::newRow("running") << "running" << false << "PSFEK";
        QTest::newRow("no status (cloud list)") << "" << false << "PSFEK";
        QTest::newRow("paused") << "paused" << false << "RSEK";
        QTest::newRow("failed") << "failed" << false << "K";
        QTest::newRow("stopped") << "stopped" << false << "K";
        QTest::newRow("unknown") << "pausing" << false << "K";
        QTest::newRow("running, busy") << "running" << true << "K";
        QTest::newRow("paused, busy") << "paused" << true << "K";
    }
    void stateRules()
    {
        QFETCH(QString, status);
        QFETCH(bool, busy);
        QFETCH(QString, allowed);
        const std::pair<QChar, SandboxAction> actions[] = {
            {'P', SandboxAction::Pause},    {'R', SandboxAction::Resume},
            {'S', SandboxAction::Snapshot}, {'F', SandboxAction::Fork},
            {'E', SandboxAction::Extend},   {'K', SandboxAction::Kill},
        };
        QString got;
        for (const auto& [letter, action] : actions)
            if (models::sandboxActionAllowed(action, status, busy))
                got += letter;
        QCOMPARE(got, allowed);
    }

    void limitDetails()
    {
        client::ApiError e;
        e.kind = client::ApiError::Kind::RateLimit;
        e.httpStatus = 429;
        e.code = "SANDBOX_LIMIT";
        e.message = "too many sandboxes";
        e.limit = 5;
        e.running = 5;
        e.retryAfterS = 10;
        e.what = "Fork sandbox sb_1";
        QCOMPARE(models::withLimitDetails(e).toDisplayString(),
                 QString("Fork sandbox sb_1 failed: 429 SANDBOX_LIMIT: too many sandboxes [limit "
                         "5, 5 running] "
                         "(retry in 10 s)"));
        client::ApiError other = e;
        other.kind = client::ApiError::Kind::Conflict;
        QCOMPARE(models::withLimitDetails(other).message, e.message);
    }

    void forkFailures()
    {
        client::ForkEntry limited;
        limited.error = "too many sandboxes";
        limited.code = "SANDBOX_LIMIT";
        limited.httpStatus = 429;
        limited.limit = 1;
        limited.running = 1;
        limited.retryAfterS = 5;
        QCOMPARE(models::forkFailureText(limited),
                 QString("SANDBOX_LIMIT: too many sandboxes [limit 1, 1 running] (retry in 5 s)"));
        client::ForkEntry plain;
        plain.error = "fork failed";
        QCOMPARE(models::forkFailureText(plain), QString("fork failed"));
    }

    void bytes_data()
    {
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("0") << qint64(0) << "0 B";
        QTest::newRow("1023") << qint64(1023) << "1023 B";
        QTest::newRow("1.5K") << qint64(1536) << "1.5 KB";
        QTest::newRow("1K") << qint64(1024) << "1 KB";
        QTest::newRow("100M") << qint64(100) * 1024 * 1024 << "100 MB";
        QTest::newRow("2.3G") << qint64(2.3 * 1024 * 1024 * 1024) << "2.3 GB";
    }
    void bytes()
    {
        QFETCH(qint64, bytes);
        QFETCH(QString, text);
        QCOMPARE(models::formatBytes(bytes), text);
    }
};

QTEST_GUILESS_MAIN(TestLifecycleModels)
#include "tst_lifecyclemodels.moc"
