// SandboxTableModel without a server: applying fresh lists gives minimal row changes, never
// resets; the time-left column ticks on its own.
#include "models/sandboxrow.h"
#include "models/sandboxtablemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using lizard::client::SandboxInfo;
using lizard::models::SandboxTableModel;
namespace SandboxColumn = lizard::models::SandboxColumn;

namespace {
SandboxInfo sb(const QString& id, const QString& status = "running", int endInSecs = 300)
{
    SandboxInfo info;
    info.sandboxId = id;
    info.templateName = "base";
    info.size = "medium";
    info.status = status;
    info.startedAt = QDateTime::fromString("2026-01-01T10:00:00Z", Qt::ISODate);
    if (endInSecs > 0)
        info.endAt = info.startedAt.addSecs(endInSecs);
    return info;
}
QList<SandboxInfo> list(const QStringList& ids)
{
    QList<SandboxInfo> out;
    for (const QString& id : ids)
        out << sb(id);
    return out;
}
} // namespace

class TestSandboxTableModel : public QObject
{
    Q_OBJECT
private slots:
    void apply_data()
    {
        QTest::addColumn<QStringList>("before");
        QTest::addColumn<QStringList>("after");
        QTest::addColumn<int>("insertSignals");
        QTest::addColumn<int>("removeSignals");
        QTest::newRow("nothing changes")
            << QStringList{"a", "b"} << QStringList{"a", "b"} << 0 << 0;
        QTest::newRow("one appears") << QStringList{"a"} << QStringList{"a", "b"} << 1 << 0;
        QTest::newRow("two appear at once")
            << QStringList{"a"} << QStringList{"a", "b", "c"} << 1 << 0;
        QTest::newRow("middle one goes")
            << QStringList{"a", "b", "c"} << QStringList{"a", "c"} << 0 << 1;
        QTest::newRow("a run goes in one signal")
            << QStringList{"a", "b", "c", "d"} << QStringList{"a", "d"} << 0 << 1;
        QTest::newRow("two separate go")
            << QStringList{"a", "b", "c", "d"} << QStringList{"b", "d"} << 0 << 2;
        QTest::newRow("all replaced") << QStringList{"a", "b"} << QStringList{"c"} << 1 << 1;
        QTest::newRow("empties") << QStringList{"a", "b"} << QStringList{} << 0 << 1;
    }
    void apply()
    {
        QFETCH(QStringList, before);
        QFETCH(QStringList, after);
        QFETCH(int, insertSignals);
        QFETCH(int, removeSignals);
        SandboxTableModel model(nullptr);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.applySandboxes(list(before));
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.applySandboxes(list(after));
        QCOMPARE(inserted.count(), insertSignals);
        QCOMPARE(removed.count(), removeSignals);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(reset.count(), 0);
        QStringList ids;
        for (int row = 0; row < model.rowCount(); ++row)
            ids << model.index(row, SandboxColumn::Id).data().toString();
        QStringList expected = after;
        QCOMPARE(QSet<QString>(ids.begin(), ids.end()),
                 QSet<QString>(expected.begin(), expected.end()));
    }

    void changedRowGetsOneNarrowDataChanged()
    {
        SandboxTableModel model(nullptr);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.applySandboxes({sb("a"), sb("b"), sb("c")});
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.applySandboxes({sb("a"), sb("b", "paused"), sb("c")});
        QCOMPARE(changed.count(), 1);
        const auto topLeft = changed.at(0).at(0).value<QModelIndex>();
        const auto bottomRight = changed.at(0).at(1).value<QModelIndex>();
        QCOMPARE(topLeft.row(), 1);
        QCOMPARE(bottomRight.row(), 1);
        QCOMPARE(topLeft.column(), int(SandboxColumn::Status));
        QCOMPARE(bottomRight.column(), int(SandboxColumn::Status));
        QCOMPARE(model.index(1, SandboxColumn::Status).data().toString(), QString("paused"));
    }

    void timeLeftTicksWithoutRefetch()
    {
        SandboxTableModel model(nullptr);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QDateTime now = QDateTime::fromString("2026-01-01T10:00:00Z", Qt::ISODate);
        model.setClock([&now] { return now; });
        model.applySandboxes(
            {sb("nodeadline", "running", 0), sb("a", "running", 300), sb("b", "running", 90)});
        QCOMPARE(model.index(1, SandboxColumn::TimeLeft).data().toString(), QString("5:00"));
        QCOMPARE(model.index(0, SandboxColumn::TimeLeft).data().toString(), QString("no limit"));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setTickInterval(20);
        now = now.addSecs(1);
        QVERIFY(changed.wait(1000));
        const auto topLeft = changed.at(0).at(0).value<QModelIndex>();
        const auto bottomRight = changed.at(0).at(1).value<QModelIndex>();
        // The time columns and the badge (ending soon) between them.
        QCOMPARE(topLeft.column(), int(SandboxColumn::Status));
        QCOMPARE(bottomRight.column(), int(SandboxColumn::TimeLeft));
        QCOMPARE(topLeft.row(), 0);
        QCOMPARE(bottomRight.row(), 2);
        QCOMPARE(model.index(1, SandboxColumn::TimeLeft).data().toString(), QString("4:59"));
        QCOMPARE(model.index(2, SandboxColumn::TimeLeft).data().toString(), QString("1:29"));
    }

    void badgesAndRelativeTimes()
    {
        SandboxTableModel model(nullptr);
        QDateTime now = QDateTime::fromString("2026-01-01T10:07:00Z", Qt::ISODate);
        model.setClock([&now] { return now; });
        model.applySandboxes({sb("long", "running", 3600), sb("soon", "running", 600),
                              sb("p", "paused", 3600), sb("k", "killed", 3600),
                              sb("forever", "running", 0)});
        const auto badge = [&model](int row) {
            return model.index(row, SandboxColumn::Status)
                .data(SandboxTableModel::BadgeRole)
                .toString();
        };
        QCOMPARE(badge(0), QString("running"));
        QCOMPARE(badge(1), QString("ending")); // 3 minutes left
        QCOMPARE(badge(2), QString("paused"));
        QCOMPARE(badge(3), QString("other"));
        QCOMPARE(badge(4), QString("running")); // no deadline
        now = QDateTime::fromString("2026-01-01T10:04:00Z", Qt::ISODate);
        QCOMPARE(badge(1), QString("running")); // 6 minutes left
        // Started: how long ago, the time itself in the tooltip.
        const QModelIndex started = model.index(0, SandboxColumn::Started);
        QCOMPARE(started.data().toString(), QString("4 min ago"));
        QCOMPARE(started.data(Qt::ToolTipRole).toString(),
                 "Started " + QDateTime::fromString("2026-01-01T10:00:00Z", Qt::ISODate)
                                  .toLocalTime()
                                  .toString("yyyy-MM-dd hh:mm:ss"));
        const QModelIndex left = model.index(0, SandboxColumn::TimeLeft);
        QVERIFY(left.data(Qt::ToolTipRole).toString().startsWith("Ends 2026-01-01 "));
        QCOMPARE(model.index(4, SandboxColumn::TimeLeft).data(Qt::ToolTipRole).toString(),
                 QString("No deadline: it runs until killed"));
        // Numbers and times on the right.
        QCOMPARE(started.data(Qt::TextAlignmentRole).toInt(),
                 int(Qt::AlignRight | Qt::AlignVCenter));
    }

    void sizeSaysWhetherLimitsAreEnforced()
    {
        SandboxInfo info = sb("a");
        QCOMPARE(lizard::models::sandboxSizeText(info), QString("medium · limits not enforced"));
        info.cpus = 4;
        info.memoryMb = 8192;
        QCOMPARE(lizard::models::sandboxSizeText(info), QString("medium · 4 vCPU · 8 GB"));
        info.cpus = 0.5;
        info.memoryMb = 1536;
        QCOMPARE(lizard::models::sandboxSizeText(info), QString("medium · 0.5 vCPU · 1536 MB"));
    }

    // The disk follows the limits: "Disk: 10 GB" (an image), "(watched)" where an ordinary
    // user's lizard-local bounds it by measuring, "(full)" while a watched one is over.
    void sizeShowsTheDisk()
    {
        SandboxInfo info = sb("a");
        info.limitsEnforcedBy = "rlimit";
        info.pidsLimit = 1024;
        info.processMemoryMb = 8192;
        const QString limits("medium · 1024 pids · 8 GB per process · cpu not limited");
        QCOMPARE(lizard::models::sandboxSizeText(info), limits); // not bounded: nothing said
        info.diskGb = 10;
        info.diskEnforcedBy = "image";
        QCOMPARE(lizard::models::sandboxSizeText(info), limits + " · Disk: 10 GB");
        QVERIFY(lizard::models::sandboxLimitsToolTip(info).endsWith(
            "Disk: 10 GB, its own file system."));
        info.diskEnforcedBy = "watch";
        QCOMPARE(lizard::models::sandboxSizeText(info), limits + " · Disk: 10 GB (watched)");
        QVERIFY(
            lizard::models::sandboxLimitsToolTip(info).contains("watched: the server measures"));
        const SandboxInfo before = info;
        info.diskOver = true;
        QVERIFY(lizard::models::sandboxRowDiffers(before, info)); // the row is repainted
        QCOMPARE(lizard::models::sandboxSizeText(info), limits + " · Disk: 10 GB (full)");
        QVERIFY(lizard::models::sandboxLimitsToolTip(info).contains("delete files to write again"));
        SandboxTableModel model(nullptr);
        model.applySandboxes({info});
        QCOMPARE(model.index(0, SandboxColumn::Size).data().toString(),
                 limits + " · Disk: 10 GB (full)");
    }

    void sizeSaysHowLimitsAreEnforced()
    {
        SandboxInfo info = sb("a");
        info.limitsEnforcedBy = "cgroup";
        info.cpus = 2;
        info.memoryMb = 8192;
        info.pidsLimit = 1024;
        QCOMPARE(lizard::models::sandboxSizeText(info),
                 QString("medium · 2 vCPU · 8 GB · 1024 pids"));
        QVERIFY(lizard::models::sandboxLimitsToolTip(info).startsWith("Enforced by cgroups"));
        info.limitsEnforcedBy = "rlimit";
        info.cpus = 0;
        info.memoryMb = 0;
        info.processMemoryMb = 8192;
        QCOMPARE(lizard::models::sandboxSizeText(info),
                 QString("medium · 1024 pids · 8 GB per process · cpu not limited"));
        QVERIFY(lizard::models::sandboxLimitsToolTip(info).contains("cgroups are not writable"));
        info.limitsEnforcedBy = "none";
        info.pidsLimit = 0;
        QCOMPARE(lizard::models::sandboxSizeText(info), QString("medium · limits not enforced"));
        QCOMPARE(lizard::models::sandboxLimitsToolTip(info),
                 QString("No limits: cgroups are not writable on this host."));
        // The model shows the same: text in the Size cell, the sentence as its tooltip.
        SandboxTableModel model(nullptr);
        model.applySandboxes({info});
        QCOMPARE(model.index(0, SandboxColumn::Size).data().toString(),
                 QString("medium · limits not enforced"));
        QCOMPARE(model.index(0, SandboxColumn::Size).data(Qt::ToolTipRole).toString(),
                 QString("No limits: cgroups are not writable on this host."));
    }
};

QTEST_GUILESS_MAIN(TestSandboxTableModel)
#include "tst_sandboxtablemodel.moc"
