// lizard-bench-coderun against a real lizard-local: it measures the app's runCode and prints the
// figure line with the official SDK's runCode as its reference (when node and the SDK are there),
// then the completion figure with that runCode median as its reference.
#include "support/localserver.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

class TestBenchCodeRun : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(m_server.start(), qPrintable(m_server.errorString())); }
    void cleanupTestCase() { m_server.stop(); }
    void badArgumentsAreRefused();
    void printsTheFigureBesideTheSdk();

private:
    QProcess* run(const QStringList& args, int timeoutMs);
    lizard::test::LocalServer m_server;
    std::unique_ptr<QProcess> m_proc;
};

QProcess* TestBenchCodeRun::run(const QStringList& args, int timeoutMs)
{
    m_proc = std::make_unique<QProcess>();
    m_proc->setProcessChannelMode(QProcess::MergedChannels);
    m_proc->start(QStringLiteral(LIZARD_BIN_DIR "/lizard-bench-coderun"), args);
    if (!m_proc->waitForFinished(timeoutMs))
        m_proc->kill();
    m_proc->waitForFinished();
    return m_proc.get();
}

void TestBenchCodeRun::badArgumentsAreRefused()
{
    QProcess* p = run({"--runs", "3"}, 30000);
    QCOMPARE(p->exitCode(), 1);
    QVERIFY(p->readAll().contains("usage"));
}

void TestBenchCodeRun::printsTheFigureBesideTheSdk()
{
    QProcess* p = run({"--url", m_server.url(), "--key", m_server.apiKey(), "--runs", "8",
                       "--complete-runs", "5"},
                      420000);
    const QString out = QString::fromUtf8(p->readAll());
    QCOMPARE(p->exitCode(), 0);
    static const QRegularExpression figure(
        R"(runCode warm 1\+1\s+median of 8\s+([0-9.]+) ms\s+target <= 8\.00 ms\s+(PASS|MISS))");
    const QRegularExpressionMatch m = figure.match(out);
    QVERIFY2(m.hasMatch(), qPrintable(out));
    QVERIFY(m.captured(1).toDouble() > 0);
    QVERIFY2(out.contains("serve fast path"), qPrintable(out));
    const bool sdkThere = QFile::exists(QStringLiteral(LIZARD_SDK_INDEX)) &&
                          !QStandardPaths::findExecutable("node").isEmpty();
    if (sdkThere) {
        static const QRegularExpression ref(
            R"(reference official SDK runCode\('1\+1'\): ([0-9.]+) ms \(ratio ([0-9.]+)x\))");
        QVERIFY2(ref.match(out).hasMatch(), qPrintable(out));
    } else {
        QVERIFY2(out.contains("reference: none for runCode"), qPrintable(out));
    }
    // Tab completion in the same warm kernel, with this run's 1+1 as its reference.
    static const QRegularExpression complete(
        R"(complete warm np\.lins\s+median of 5\s+([0-9.]+) ms\s+target <= 50\.00 ms\s+(PASS|MISS)\s+)"
        R"(reference runCode warm 1\+1 \(same run\): ([0-9.]+) ms .*p90 ([0-9.]+) ms)");
    const QRegularExpressionMatch c = complete.match(out);
    QVERIFY2(c.hasMatch(), qPrintable(out));
    QVERIFY(c.captured(1).toDouble() > 0);
    QCOMPARE(c.captured(3).toDouble(), m.captured(1).toDouble());
    QVERIFY(c.captured(4).toDouble() >= c.captured(1).toDouble());
    // It deletes the sandbox it made.
    const auto list = m_server.request("GET", "/api/sandboxes");
    QVERIFY2(!list.body.contains("\"running\""), list.body.constData());
}

QTEST_GUILESS_MAIN(TestBenchCodeRun)
#include "tst_benchcoderun.moc"
