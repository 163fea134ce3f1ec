// When a sandbox is near a limit (models/metricslimits.h): memory at 90 % of a cgroup's limit,
// never of a per-process bound; disk at 90 %; processes at the limit; and the figures' texts.
#include "models/metricslimits.h"

#include <QTest>

using namespace lizard;
using client::MetricLimits;
using client::MetricSnapshot;

namespace {

MetricSnapshot metricsSnapshotAt(double memoryMb, double diskGb, double pids)
{
    MetricSnapshot s;
    s.t = 1796100000000;
    s.cpu = 0.5;
    s.memory = memoryMb * 1024 * 1024;
    s.disk = diskGb * 1024 * 1024 * 1024;
    s.pids = pids;
    return s;
}

MetricLimits metricsLimits(const QString& memoryKind)
{
    MetricLimits l;
    l.cpus = 2;
    l.memoryMb = 1000;
    l.memoryKind = memoryKind;
    l.pids = 1024;
    l.diskGb = 10;
    return l;
}

} // namespace

class TestMetricsLimits : public QObject
{
    Q_OBJECT
private slots:
    void farFromEveryLimit()
    {
        const auto w =
            models::nearLimitWarnings(metricsSnapshotAt(500, 5, 20), metricsLimits("cgroup"));
        QVERIFY2(w.isEmpty(), qPrintable(w.join('\n')));
        QCOMPARE(models::cpuFraction(metricsSnapshotAt(1, 1, 1), metricsLimits("cgroup")), 0.25);
    }

    void memoryAtNinetyPercent()
    {
        const auto w =
            models::nearLimitWarnings(metricsSnapshotAt(930, 1, 20), metricsLimits("cgroup"));
        QCOMPARE(w.size(), 1);
        QVERIFY2(w.first().startsWith("Memory at 93 %"), qPrintable(w.first()));
        QVERIFY(models::nearLimitWarnings(metricsSnapshotAt(899, 1, 20), metricsLimits("cgroup"))
                    .isEmpty());
        // Bounded per process: the sandbox's total is not near anything.
        QVERIFY(models::nearLimitWarnings(metricsSnapshotAt(2000, 1, 20), metricsLimits("process"))
                    .isEmpty());
        QCOMPARE(models::memoryFraction(metricsSnapshotAt(2000, 1, 20), metricsLimits("process")),
                 -1.0);
    }

    void diskAndProcesses()
    {
        const auto w =
            models::nearLimitWarnings(metricsSnapshotAt(10, 9.5, 1024), metricsLimits("cgroup"));
        QCOMPARE(w.size(), 2);
        QVERIFY2(w.at(0).startsWith("Disk at 95 % of its 10 GB"), qPrintable(w.at(0)));
        QVERIFY2(w.at(1).startsWith("Processes at the limit (1024 of 1024)"), qPrintable(w.at(1)));
        QVERIFY(models::nearLimitWarnings(metricsSnapshotAt(10, 1, 1023), metricsLimits("cgroup"))
                    .isEmpty());
        // No sample yet, or a figure not known: nothing to say.
        QVERIFY(models::nearLimitWarnings(MetricSnapshot{}, metricsLimits("cgroup")).isEmpty());
        MetricSnapshot unknown = metricsSnapshotAt(10, 1, 1);
        unknown.disk = MetricSnapshot::kUnknown;
        QCOMPARE(models::diskFraction(unknown, metricsLimits("cgroup")), -1.0);
    }

    void texts()
    {
        QCOMPARE(models::formatCores(0.523), QStringLiteral("0.52 cores"));
        QCOMPARE(models::formatCores(1.0), QStringLiteral("1.00 core"));
        QCOMPARE(models::formatCores(MetricSnapshot::kUnknown), QStringLiteral("–"));
        QCOMPARE(models::formatRate(1536), QStringLiteral("1.5 KB/s"));
    }
};

QTEST_GUILESS_MAIN(TestMetricsLimits)
#include "tst_metricslimits.moc"
