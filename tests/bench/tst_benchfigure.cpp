// The benchmark's statistics, its figure lines (target, PASS/MISS, reference ratio) and the
// URL parsing of the requests-per-second client.

#include "figure.h"
#include "keepaliveconnection.h"
#include "stats.h"

#include <QTest>

using namespace lizard::bench;

class TestBenchFigure : public QObject
{
    Q_OBJECT

private slots:
    void medianOf_data();
    void medianOf();
    void quantiles();
    void verdict_data();
    void verdict();
    void lineShowsReferenceRatio();
    void lineShowsError();
    void httpUrl_data();
    void httpUrl();
};

void TestBenchFigure::medianOf_data()
{
    QTest::addColumn<std::vector<double>>("samples");
    QTest::addColumn<double>("expected");
    QTest::newRow("empty") << std::vector<double>{} << 0.0;
    QTest::newRow("one") << std::vector<double>{7} << 7.0;
    QTest::newRow("odd, unsorted") << std::vector<double>{9, 1, 5} << 5.0;
    QTest::newRow("even: mean of the middle two") << std::vector<double>{4, 1, 3, 100} << 3.5;
    QTest::newRow("an outlier does not move it")
        << std::vector<double>{10, 11, 12, 13, 5000} << 12.0;
}

void TestBenchFigure::medianOf()
{
    QFETCH(std::vector<double>, samples);
    QFETCH(double, expected);
    QCOMPARE(median(samples), expected);
}

void TestBenchFigure::quantiles()
{
    std::vector<double> samples;
    for (int i = 100; i >= 1; --i)
        samples.push_back(i);
    QCOMPARE(quantile(samples, 0.9), 90.0);
    QCOMPARE(quantile(samples, 1.0), 100.0);
    QCOMPARE(quantile(samples, 0.0), 1.0);
    QCOMPARE(quantile({}, 0.5), 0.0);
}

void TestBenchFigure::verdict_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<double>("target");
    QTest::addColumn<bool>("higherIsBetter");
    QTest::addColumn<bool>("passes");
    QTest::newRow("latency under target") << 80.0 << 150.0 << false << true;
    QTest::newRow("latency at target") << 150.0 << 150.0 << false << true;
    QTest::newRow("latency over target") << 151.0 << 150.0 << false << false;
    QTest::newRow("rate over target") << 9000.0 << 5000.0 << true << true;
    QTest::newRow("rate under target") << 4999.0 << 5000.0 << true << false;
}

void TestBenchFigure::verdict()
{
    QFETCH(double, value);
    QFETCH(double, target);
    QFETCH(bool, higherIsBetter);
    QFETCH(bool, passes);
    Figure f{.name = "x",
             .statistic = "median",
             .unit = "ms",
             .value = value,
             .target = target,
             .higherIsBetter = higherIsBetter};
    QCOMPARE(f.passes(), passes);
    const QString line = QString::fromStdString(f.line());
    QVERIFY2(line.contains(passes ? "PASS" : "MISS"), qPrintable(line));
    QVERIFY2(!line.contains(passes ? "MISS" : "PASS"), qPrintable(line));
    QVERIFY2(line.contains(higherIsBetter ? "target >= " : "target <= "), qPrintable(line));
}

void TestBenchFigure::lineShowsReferenceRatio()
{
    Figure f{.name = "exec of `true`, round trip",
             .statistic = "median of 100",
             .unit = "ms",
             .value = 6.0,
             .target = 15,
             .reference = Reference{"bwrap", 2.0},
             .note = "p90 7 ms"};
    const QString line = QString::fromStdString(f.line());
    QVERIFY2(line.startsWith("exec of `true`, round trip"), qPrintable(line));
    QVERIFY2(line.contains("6.00 ms"), qPrintable(line));
    QVERIFY2(line.contains("reference bwrap: 2.00 ms (ratio 3.00x)"), qPrintable(line));
    QVERIFY2(line.endsWith("[p90 7 ms]"), qPrintable(line));
}

void TestBenchFigure::lineShowsError()
{
    Figure f{.name = "SSE exec throughput",
             .unit = "MB/s",
             .target = 100,
             .higherIsBetter = true,
             .error = "HTTP 500: boom"};
    QVERIFY(!f.passes());
    const QString line = QString::fromStdString(f.line());
    QVERIFY2(line.contains("ERROR  HTTP 500: boom"), qPrintable(line));
    QVERIFY2(!line.contains("PASS") && !line.contains("MISS"), qPrintable(line));
}

void TestBenchFigure::httpUrl_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("port");
    QTest::newRow("loopback with port") << "http://127.0.0.1:8123" << true << "127.0.0.1"
                                        << "8123";
    QTest::newRow("trailing path") << "http://localhost:9/api" << true << "localhost"
                                   << "9";
    QTest::newRow("default port") << "http://example.org" << true << "example.org"
                                  << "80";
    QTest::newRow("https is not spoken") << "https://lizard.build" << false << ""
                                         << "";
    QTest::newRow("no scheme") << "127.0.0.1:80" << false << ""
                               << "";
    QTest::newRow("empty host") << "http://:80" << false << ""
                                << "";
}

void TestBenchFigure::httpUrl()
{
    QFETCH(QString, url);
    QFETCH(bool, ok);
    QFETCH(QString, host);
    QFETCH(QString, port);
    HostPort hp;
    QCOMPARE(parseHttpUrl(url.toStdString(), hp), ok);
    if (ok) {
        QCOMPARE(QString::fromStdString(hp.host), host);
        QCOMPARE(QString::fromStdString(hp.port), port);
    }
}

QTEST_APPLESS_MAIN(TestBenchFigure)
#include "tst_benchfigure.moc"
