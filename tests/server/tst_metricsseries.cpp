// One sandbox's metrics in memory and on disk (sandboxes/metricsseries.h, metricsfile.h): tiers
// of decreasing resolution with bounded sizes, the mean of rates and the maximum of levels per
// bucket, ranges that end with the raw samples, buckets that close while no samples come, and a
// file that survives a restart, stays bounded and shrugs off a record cut by a crash.
#include "logs/logfile.h"
#include "runtime/sandboxusage.h"
#include "sandboxes/metricsfile.h"
#include "sandboxes/metricssampler.h"
#include "sandboxes/metricsseries.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using lizard::sandboxes::LifecycleMark;
using lizard::sandboxes::MetricPoint;
using lizard::sandboxes::MetricsFile;
using lizard::sandboxes::MetricsSampler;
using lizard::sandboxes::MetricsSeries;

namespace {

constexpr int64_t kT0 = 1796100000000; // a multiple of 5 minutes
constexpr int64_t kStep = 2000;

MetricPoint sample(int64_t t, double cpu, double memory)
{
    MetricPoint p;
    p.t = t;
    p.cpu = cpu;
    p.memory = memory;
    p.pids = 3;
    p.disk = 4096;
    p.networkRx = 100;
    return p;
}

} // namespace

class TestMetricsSeries : public QObject
{
    Q_OBJECT

private slots:
    void rawWindowThenBuckets()
    {
        MetricsSeries s;
        // 30 s of samples: one closed 30-second bucket once the next one starts.
        for (int i = 0; i < 16; ++i)
            s.add(sample(kT0 + i * kStep, i < 15 ? 1.0 : 0.0, i == 7 ? 900 : 100));
        QCOMPARE(s.buckets(0).size(), size_t(1));
        const MetricPoint b = s.buckets(0).front();
        QCOMPARE(b.t, kT0);
        QCOMPARE(b.cpu, 1.0);             // the mean of the rates
        QCOMPARE(b.memory, 900.0);        // the maximum of the levels: a peak is kept
        QVERIFY(std::isnan(b.diskWrite)); // never known
        // 10 minutes: every sample; an hour: the buckets, then the samples after them.
        QCOMPARE(s.range(kT0 + 15 * kStep, 10 * 60 * 1000).size(), size_t(16));
        const auto hour = s.range(kT0 + 15 * kStep, 3600 * 1000);
        QCOMPARE(hour.size(), size_t(2));
        QCOMPARE(hour[0].t, kT0);
        QCOMPARE(hour[1].t, kT0 + 15 * kStep);
    }

    void boundedOverADay()
    {
        MetricsSeries s;
        int64_t t = kT0;
        for (; t < kT0 + 25 * 3600 * 1000LL; t += kStep)
            s.add(sample(t, 0.5, 100));
        QCOMPARE(s.raw().size(), size_t(MetricsSeries::kRawKeepMs / kStep + 1));
        QVERIFY(s.buckets(0).size() >= size_t(6 * 3600 / 30 - 1));
        QVERIFY(s.buckets(0).size() <= size_t(6 * 3600 / 30 + 1));
        QVERIFY(s.buckets(1).size() >= size_t(24 * 12 - 1));
        QVERIFY(s.buckets(1).size() <= size_t(24 * 12 + 1));
        const auto day = s.range(t - kStep, 24 * 3600 * 1000LL);
        QVERIFY2(day.size() <= 24 * 12 + 1 + 150, qPrintable(QString::number(day.size())));
        for (size_t i = 1; i < day.size(); ++i)
            QVERIFY(day[i].t > day[i - 1].t);
    }

    void bucketsCloseWithoutSamples()
    {
        MetricsSeries s;
        s.add(sample(kT0, 1, 100));
        s.add(sample(kT0 + kStep, 1, 100));
        QVERIFY(s.buckets(0).empty());
        // Paused: no samples, but time goes on.
        s.advance(kT0 + 20 * 60 * 1000);
        QCOMPARE(s.buckets(0).size(), size_t(1));
        QCOMPARE(s.buckets(1).size(), size_t(1));
        QVERIFY(s.raw().empty()); // past the raw window
        QCOMPARE(s.range(kT0 + 20 * 60 * 1000, 3600 * 1000).size(), size_t(1));
        QVERIFY(s.takeClosed().size() == 2);
    }

    void fileSurvivesARestart()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("metrics.bin").toStdString();
        MetricsFile file(path);
        MetricsSeries s;
        std::string records;
        for (int i = 0; i < 40; ++i) {
            s.add(sample(kT0 + i * kStep, 0.25, 1000 + i));
            records += MetricsFile::sampleRecord(s.raw().back());
            for (const auto& [tier, b] : s.takeClosed())
                records += MetricsFile::bucketRecord(tier, b);
        }
        records += MetricsFile::markRecord({kT0 + 5000, "paused", "paused"});
        QVERIFY(!file.append(records)); // an append never creates the file
        QVERIFY(file.append(records, true));

        MetricsSeries loaded;
        std::deque<LifecycleMark> marks;
        QVERIFY(file.load(loaded, marks));
        QCOMPARE(loaded.raw().size(), s.raw().size());
        QCOMPARE(loaded.buckets(0).size(), s.buckets(0).size());
        QCOMPARE(loaded.raw().back().memory, 1039.0);
        QCOMPARE(marks.size(), size_t(1));
        QCOMPARE(marks[0].kind, std::string("paused"));
        QVERIFY(loaded.takeClosed().empty()); // nothing closed twice

        // A crash mid-record: the records before it load, the cut one is ignored.
        QFile raw(QString::fromStdString(path));
        QVERIFY(raw.open(QIODevice::Append));
        raw.write(
            QByteArray::fromStdString(MetricsFile::sampleRecord(sample(kT0 + 99 * kStep, 1, 1)))
                .left(20));
        raw.close();
        MetricsSeries again;
        marks.clear();
        QVERIFY(file.load(again, marks));
        QCOMPARE(again.raw().size(), s.raw().size());
    }

    void rewriteKeepsTheFileBounded()
    {
        QTemporaryDir dir;
        MetricsFile file(dir.filePath("metrics.bin").toStdString());
        MetricsSeries s;
        for (int64_t t = kT0; t < kT0 + 25 * 3600 * 1000LL; t += kStep)
            s.add(sample(t, 0.5, 100));
        std::deque<LifecycleMark> marks(MetricsFile::kMaxMarks, {kT0, "created", "created"});
        size_t bytes = 0;
        QVERIFY(file.rewrite(s, marks, bytes));
        QCOMPARE(qint64(bytes), QFileInfo(dir.filePath("metrics.bin")).size());
        QVERIFY2(bytes < MetricsFile::kMaxBytes, qPrintable(QString::number(bytes)));
        qInfo("a full day at 2 s with %zu marks: %zu bytes", marks.size(), bytes);
        MetricsSeries loaded;
        std::deque<LifecycleMark> back;
        QVERIFY(file.load(loaded, back));
        QCOMPARE(loaded.buckets(1).size(), s.buckets(1).size());
        QCOMPARE(back.size(), marks.size());
    }

    void lifecycleLinesBecomeMarks_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("kind");
        QTest::newRow("created") << "lifecycle"
                                 << "created (template base, size medium)"
                                 << "created";
        QTest::newRow("paused") << "lifecycle"
                                << "paused"
                                << "paused";
        QTest::newRow("resumed") << "lifecycle"
                                 << "resumed"
                                 << "resumed";
        QTest::newRow("snapshot") << "lifecycle"
                                  << "snapshot snap_1 taken"
                                  << "snapshot";
        QTest::newRow("fork") << "lifecycle"
                              << "forked into sb_2"
                              << "fork";
        QTest::newRow("oom") << "kernel"
                             << "OOM: killed 14 python3"
                             << "oom";
        QTest::newRow("timeout") << "lifecycle"
                                 << "timeout set to 60 s"
                                 << "timeout";
        QTest::newRow("agent") << "agent"
                               << "paused"
                               << "";
        QTest::newRow("killed") << "lifecycle"
                                << "killed"
                                << "";
    }
    void lifecycleLinesBecomeMarks()
    {
        QFETCH(QString, source);
        QFETCH(QString, message);
        QFETCH(QString, kind);
        lizard::logs::LogLine line{1, kT0, "info", source.toStdString(), message.toStdString()};
        QCOMPARE(QString::fromStdString(MetricsSampler::markKind(line)), kind);
    }

    void netDevOfThisProcess()
    {
        // This process's own network namespace: at least loopback exists and is left out.
        const auto net = lizard::runtime::readNetDev(::getpid());
        QVERIFY(net.has_value());
    }
};

QTEST_GUILESS_MAIN(TestMetricsSeries)
#include "tst_metricsseries.moc"
