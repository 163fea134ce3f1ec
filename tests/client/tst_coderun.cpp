// runCode through CodeInterpreter against a real lizard-local (template `interpreter`), on both
// paths: the fast path (serve over one streaming exec) and exec-per-run.
#include "support/sandboxpolicy.h"
#include "tst_coderunsupport.h"

#include <QJsonDocument>
#include <QSignalSpy>

using namespace lizard;
using client::CodeInterpreter;
using client::CodeRun;
using client::KernelState;
using client::RunCodeOptions;
using lizard::test::describe;
using lizard::test::runToEnd;

class TestCodeRun : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }

    void statePersistsAndNewContextsAreSeparate_data() { transports(); }
    void statePersistsAndNewContextsAreSeparate();
    void outputStreamsWhileRunning_data() { transports(); }
    void outputStreamsWhileRunning();
    void timeoutKeepsState_data() { transports(); }
    void timeoutKeepsState();
    void richResults_data();
    void richResults();
    void otherLanguages_data();
    void otherLanguages();
    void kernelDeathIsReportedAndNextRunIsFresh_data() { transports(); }
    void kernelDeathIsReportedAndNextRunIsFresh();
    void interruptStopsTheCell_data() { transports(); }
    void interruptStopsTheCell();
    void badContextFails_data() { transports(); }
    void badContextFails();

private:
    static void transports()
    {
        QTest::addColumn<bool>("fastPath");
        QTest::newRow("serve") << true;
        QTest::newRow("exec-per-run") << false;
    }
    std::unique_ptr<CodeInterpreter> interpreter()
    {
        QFETCH(bool, fastPath);
        return m_fx.interpreter(fastPath);
    }
    QString newContext(CodeInterpreter& interp, const QString& language = "python")
    {
        lizard::test::ApiWaiter<client::CodeContext> made;
        interp.createContext(language, {}, nullptr, made.done());
        return made.wait(120000) && made.ok() ? made.value().id : QString();
    }

    lizard::test::CodeRunFixture m_fx;
};

void TestCodeRun::initTestCase()
{
    const QString error = m_fx.start();
    // Without the host's Jupyter packages the interpreter template is not there (a host that
    // lacks it, like one without sandboxes: see support/sandboxpolicy.h).
    if (!error.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes() || error.contains("INTERPRETER") ||
                           error.contains("interpreter template"),
                       error);
}

void TestCodeRun::cleanupTestCase()
{
    m_fx.stop();
}

void TestCodeRun::statePersistsAndNewContextsAreSeparate()
{
    auto interp = interpreter();
    const QString ctx = newContext(*interp);
    QVERIFY(ctx.startsWith("ctx-"));
    RunCodeOptions opts;
    opts.contextId = ctx;
    CodeRun* set =
        runToEnd(*interp, "import pandas as pd; df = pd.DataFrame({'x': [1, 2, 3]})", opts);
    QVERIFY2(set->isFinished() && !set->hasFailed() && set->execution().success(), describe(set));
    CodeRun* sum = runToEnd(*interp, "df.x.sum()", opts);
    QVERIFY2(sum->execution().success(), describe(sum));
    QCOMPARE(sum->execution().text(), QString("6"));
    QCOMPARE(sum->execution().executionCount, 2);
    QCOMPARE(sum->execution().results.first().executionCount, std::optional<int>(2));

    RunCodeOptions other;
    other.contextId = newContext(*interp);
    CodeRun* missing = runToEnd(*interp, "df", other);
    QVERIFY2(missing->execution().error, describe(missing));
    QCOMPARE(missing->execution().error->name, QString("NameError"));
    QVERIFY(missing->execution().error->tracebackAnsi.contains("\x1b["));
    QVERIFY(!missing->execution().error->traceback.contains("\x1b["));
    QCOMPARE(interp->kernelState(ctx), KernelState::Idle);
}

void TestCodeRun::outputStreamsWhileRunning()
{
    auto interp = interpreter();
    CodeRun* run = interp->runCode("import time, sys\nprint('first', flush=True)\ntime.sleep(1.5)\n"
                                   "print('oops', file=sys.stderr, flush=True)\nprint('last')");
    QSignalSpy out(run, &CodeRun::stdoutReceived);
    QSignalSpy err(run, &CodeRun::stderrReceived);
    QSignalSpy finished(run, &CodeRun::finished);
    QTRY_COMPARE_WITH_TIMEOUT(out.size(), 1, 60000);
    QCOMPARE(out.first().first().toString(), QString("first\n"));
    QCOMPARE(finished.size(), 0); // the first line came while the cell was still running
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
    QCOMPARE(err.size(), 1);
    QCOMPARE(run->execution().stdoutText, QString("first\nlast\n"));
    QCOMPARE(run->execution().stderrText, QString("oops\n"));
}

void TestCodeRun::timeoutKeepsState()
{
    auto interp = interpreter();
    RunCodeOptions opts;
    opts.contextId = newContext(*interp);
    QVERIFY(runToEnd(*interp, "kept = 'still here'", opts)->execution().success());
    opts.timeoutS = 2;
    CodeRun* endless = runToEnd(*interp, "while True: pass", opts);
    QVERIFY2(endless->execution().error, describe(endless));
    QCOMPARE(endless->execution().error->name, QString("TimeoutError"));
    opts.timeoutS = 60;
    CodeRun* after = runToEnd(*interp, "kept", opts);
    QCOMPARE(after->execution().text(), QString("'still here'"));
}

void TestCodeRun::richResults_data()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("mime");
    QTest::addColumn<QString>("mustContain");
    QTest::newRow("matplotlib png")
        << "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
           "%matplotlib inline\nplt.plot([1, 3, 2])\nplt.show()"
        << "image/png"
        << "iVBORw0KGgo"; // base64 of the PNG signature
    QTest::newRow("pandas html") << "import pandas as pd\npd.DataFrame({'x': [1, 2, 3]})"
                                 << "text/html"
                                 << "<table";
    QTest::newRow("json") << "from IPython.display import JSON\nJSON({'a': [1, 2]})"
                          << "application/json"
                          << "\"a\"";
}

void TestCodeRun::richResults()
{
    QFETCH(QString, code);
    QFETCH(QString, mime);
    QFETCH(QString, mustContain);
    auto interp = m_fx.interpreter(true);
    CodeRun* run = runToEnd(*interp, code);
    QVERIFY2(run->execution().success(), describe(run));
    const QList<client::ExecutionResult> found = run->execution().resultsWith(mime);
    QVERIFY2(!found.isEmpty(), describe(run));
    const client::ExecutionResult& r = found.first();
    QCOMPARE(r.mime, mime);
    QVERIFY(r.bundle.value(mime).startsWith(mustContain) ||
            r.bundle.value(mime).contains(mustContain));
    QVERIFY(r.bundle.contains("text/plain")); // every MIME type arrives, not just the best
    if (mime == "image/png") {
        QVERIFY(QByteArray::fromBase64(r.data().toLatin1()).startsWith("\x89PNG"));
        QVERIFY(r.isDisplay);
    }
}

void TestCodeRun::otherLanguages_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("expected");
    QTest::newRow("javascript") << "javascript"
                                << "console.log(6 * 7, process.env.WHO)"
                                << "42 lizard\n";
    QTest::newRow("bash") << "bash"
                          << "echo $((6 * 7)) $WHO"
                          << "42 lizard\n";
    QTest::newRow("js alias") << "js"
                              << "console.log('ok')"
                              << "ok\n";
}

void TestCodeRun::otherLanguages()
{
    QFETCH(QString, language);
    QFETCH(QString, code);
    QFETCH(QString, expected);
    auto interp = m_fx.interpreter(true);
    RunCodeOptions opts;
    opts.language = language;
    opts.envs.insert("WHO", "lizard");
    CodeRun* run = runToEnd(*interp, code, opts);
    QVERIFY2(run->execution().success(), describe(run));
    QCOMPARE(run->execution().stdoutText, expected);
    QVERIFY(run->contextId().startsWith("default-"));
    CodeRun* failing = runToEnd(*interp, language == "bash" ? "exit 3" : "process.exit(3)", opts);
    QVERIFY2(failing->execution().error, describe(failing));
    QCOMPARE(failing->execution().error->name, QString("ExitError"));
}

void TestCodeRun::kernelDeathIsReportedAndNextRunIsFresh()
{
    auto interp = interpreter();
    RunCodeOptions opts;
    opts.contextId = newContext(*interp);
    QSignalSpy states(interp.get(), &CodeInterpreter::kernelStateChanged);
    QVERIFY(runToEnd(*interp, "doomed = 1", opts)->execution().success());
    CodeRun* death = runToEnd(*interp, "import os; os._exit(1)", opts);
    QVERIFY2(death->execution().error, describe(death));
    QCOMPARE(death->execution().error->name, QString("KernelDied"));
    QVERIFY(death->execution().error->message.contains("exit code 1"));
    QCOMPARE(interp->kernelState(opts.contextId), KernelState::Dead);
    CodeRun* next = runToEnd(*interp, "doomed", opts);
    QCOMPARE(next->execution().error->name, QString("NameError"));
    QCOMPARE(next->execution().notices.size(), 1);
    QVERIFY(next->execution().notices.first().contains("fresh kernel"));
    QCOMPARE(interp->kernelState(opts.contextId), KernelState::Idle);
    QList<KernelState> seen;
    for (const QList<QVariant>& s : states)
        seen << s.at(1).value<KernelState>();
    QVERIFY(seen.contains(KernelState::Busy) && seen.contains(KernelState::Dead));
}

void TestCodeRun::interruptStopsTheCell()
{
    auto interp = interpreter();
    RunCodeOptions opts;
    opts.contextId = newContext(*interp);
    QVERIFY(runToEnd(*interp, "n = 0", opts)->execution().success());
    CodeRun* run =
        interp->runCode("import time\nwhile True:\n    n += 1\n    time.sleep(0.01)", opts);
    QSignalSpy finished(run, &CodeRun::finished);
    QTest::qWait(1500);
    run->interrupt();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
    QVERIFY2(run->execution().error, describe(run));
    QCOMPARE(run->execution().error->name, QString("KeyboardInterrupt"));
    CodeRun* after = runToEnd(*interp, "n > 0", opts);
    QCOMPARE(after->execution().text(), QString("True"));
}

void TestCodeRun::badContextFails()
{
    auto interp = interpreter();
    RunCodeOptions opts;
    opts.contextId = "ctx-0000000000000000";
    CodeRun* run = interp->runCode("1", opts);
    QSignalSpy failed(run, &CodeRun::failed);
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 60000);
    QVERIFY(run->failure()->message.contains("not found"));
    opts.contextId = "../etc";
    CodeRun* bad = runToEnd(*interp, "1", opts);
    QVERIFY2(bad->hasFailed(), describe(bad));
    QVERIFY(bad->failure()->message.contains("invalid context id"));
}

QTEST_GUILESS_MAIN(TestCodeRun)
#include "tst_coderun.moc"
