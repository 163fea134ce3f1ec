// lizard-bench end to end: a short run against a real lizard-local prints every figure with its
// target and verdict, cleans up its sandboxes, and reports what it could not measure.

#include "support/localserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <cstdio>

class TestLizardBench : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void shortRunPrintsEveryFigure();
    void wrongKeyIsAnError();
    void badArguments_data();
    void badArguments();

private:
    struct Run
    {
        int exitCode = -1;
        QString output;
    };
    static Run bench(const QStringList& args, int timeoutMs = 300000);

    lizard::test::LocalServer m_server;
};

TestLizardBench::Run TestLizardBench::bench(const QStringList& args, int timeoutMs)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral(LIZARD_BIN_DIR "/lizard-bench"), args);
    Run r;
    if (!p.waitForStarted(5000) || !p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        r.output = "lizard-bench did not run to the end: " + p.errorString() + "\n" + p.readAll();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.output = QString::fromUtf8(p.readAll());
    return r;
}

void TestLizardBench::initTestCase()
{
    // Pools on, so that the warm pool figures are measured too.
    QVERIFY2(m_server.start({"--pool-max", "4", "--pool-base", "2", "--pool-interpreter", "0",
                             "--pool-min-free-mb", "0"}),
             qPrintable(m_server.errorString()));
}

void TestLizardBench::shortRunPrintsEveryFigure()
{
    const Run r = bench({"--url",
                         m_server.url(),
                         "--key",
                         m_server.apiKey(),
                         "--create-runs",
                         "3",
                         "--exec-runs",
                         "10",
                         "--seconds",
                         "1",
                         "--connections",
                         "2",
                         "--sse-mb",
                         "4",
                         "--local-bin",
                         lizard::test::LocalServer::serverBinary(),
                         "--restart-runs",
                         "2",
                         "--restart-sandboxes",
                         "2",
                         "--metrics-sandboxes",
                         "3",
                         "--lifecycle-runs",
                         "1",
                         "--data-dir",
                         m_server.dataDir()});
    // QTest cuts a failure message at 1 KiB: the whole output goes to stderr instead.
    if (r.exitCode != 0)
        std::fprintf(stderr, "%s\n-- server log:\n%s\n", qPrintable(r.output),
                     qPrintable(m_server.log().right(6000)));
    QVERIFY2(r.exitCode == 0, "lizard-bench failed: its output and the server's log are above");
    const QStringList lines = r.output.split('\n');
    const QStringList figures{"sandbox create -> running", "exec of `true`, round trip",
                              "GET /api/sandboxes/{id}",   "SSE exec throughput",
                              "restart with 2 sandboxes",  "create from a warm pool",
                              "GET p99, pool refilling 4", "restore (100 MB) from pool",
                              "metrics sampler, 3 idle",   "GET metrics?range=1h"};
    for (const QString& name : figures) {
        const auto it = std::find_if(lines.begin(), lines.end(),
                                     [&](const QString& l) { return l.startsWith(name); });
        QVERIFY2(it != lines.end(), qPrintable("no line for " + name + " in:\n" + r.output));
        QVERIFY2(it->contains("target "), qPrintable(*it));
        QVERIFY2(it->contains("PASS") != it->contains("MISS"), qPrintable(*it));
    }
    QVERIFY2(r.output.contains("reference same bytes piped locally"), qPrintable(r.output));
    QVERIFY2(r.output.contains("reference cold create (median)"), qPrintable(r.output));
    QVERIFY2(r.output.contains("warm copy of base, PSS"), qPrintable(r.output));
    if (!QStandardPaths::findExecutable("bwrap").isEmpty())
        QVERIFY2(r.output.contains("reference bwrap --unshare-all /bin/true"),
                 qPrintable(r.output));

    // Every sandbox the benchmark made is gone.
    const auto list = m_server.request("GET", "/api/sandboxes");
    QCOMPARE(list.status, 200);
    QCOMPARE(QJsonDocument::fromJson(list.body).array().size(), 0);
}

void TestLizardBench::wrongKeyIsAnError()
{
    const Run r = bench({"--url", m_server.url(), "--key", "liz_wrong_key_for_the_bench"}, 60000);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.output.contains("ERROR GET /api/projects: HTTP 401"), qPrintable(r.output));
}

void TestLizardBench::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("nothing") << QStringList{};
    QTest::newRow("no key") << QStringList{"--url", "http://127.0.0.1:1"};
    QTest::newRow("unknown option") << QStringList{"--url", "u", "--key", "k", "--fast", "1"};
    QTest::newRow("missing value") << QStringList{"--url", "u", "--key"};
}

void TestLizardBench::badArguments()
{
    QFETCH(QStringList, args);
    const Run r = bench(args, 10000);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.output.contains("usage: lizard-bench"), qPrintable(r.output));
}

QTEST_GUILESS_MAIN(TestLizardBench)
#include "tst_lizardbench.moc"
