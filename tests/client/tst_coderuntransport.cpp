// How runCode travels (client/coderun) against a real lizard-local: the serve fast path and its
// speed, hand-over to the next serve process, falling back to exec-per-run when the serve stream
// dies; contexts (also the official SDK's); saving variables for a fork.
#include "tst_coderunsupport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <algorithm>

using namespace lizard;
using client::CodeInterpreter;
using client::CodeRun;
using client::RunCodeOptions;
using lizard::test::describe;
using lizard::test::runToEnd;

class TestCodeRunTransport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }

    void fastPathIsUsedAndWarmRunsAreQuick();
    void nextServeProcessTakesOver();
    void deadServeStreamFallsBackToExecPerRun();
    void contextsCreateListRestartDelete();
    void sdkContextIsListedAndUsable();
    void saveAllVariablesForAFork();

private:
    QList<int> servePids(); // serve processes of our runner, from the processes API
    QString newContext(CodeInterpreter& interp)
    {
        lizard::test::ApiWaiter<client::CodeContext> made;
        interp.createContext("python", {}, nullptr, made.done());
        return made.wait(120000) && made.ok() ? made.value().id : QString();
    }
    QList<client::CodeContext> contexts(CodeInterpreter& interp)
    {
        lizard::test::ApiWaiter<QList<client::CodeContext>> listed;
        interp.listContexts(nullptr, listed.done());
        return listed.wait(60000) && listed.ok() ? listed.value() : QList<client::CodeContext>();
    }

    lizard::test::CodeRunFixture m_fx;
};

void TestCodeRunTransport::initTestCase()
{
    const QString error = m_fx.start();
    if (!error.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), error);
}

void TestCodeRunTransport::cleanupTestCase()
{
    m_fx.stop();
}

QList<int> TestCodeRunTransport::servePids()
{
    lizard::test::ApiWaiter<QList<client::ProcessInfo>> procs;
    m_fx.api().listProcesses(m_fx.sandboxId(), nullptr, procs.done());
    QList<int> pids;
    if (!procs.wait() || !procs.ok())
        return pids;
    for (const client::ProcessInfo& p : procs.value()) {
        if (p.cmd.size() < 4 || !p.cmd.at(2).contains("def serve("))
            continue;
        const QJsonObject args =
            QJsonDocument::fromJson(QByteArray::fromBase64(p.cmd.at(3).toLatin1())).object();
        if (args.value("action").toString() == "serve")
            pids << p.pid;
    }
    return pids;
}

void TestCodeRunTransport::fastPathIsUsedAndWarmRunsAreQuick()
{
    auto interp = m_fx.interpreter(true);
    QCOMPARE(interp->currentTransport(),
             CodeInterpreter::Transport::ExecPerRun); // nothing started yet
    interp->warmUp();
    QTRY_COMPARE_WITH_TIMEOUT(interp->currentTransport(), CodeInterpreter::Transport::Serve, 60000);
    QVERIFY(runToEnd(*interp, "1+1")->execution().success()); // the kernel starts here
    QList<qint64> times;
    for (int i = 0; i < 15; ++i) {
        QElapsedTimer t;
        t.start();
        CodeRun* run = runToEnd(*interp, "1+1");
        times << t.elapsed();
        QCOMPARE(run->execution().text(), QString("2"));
        run->deleteLater();
    }
    std::sort(times.begin(), times.end());
    qInfo("warm 1+1 over serve: median %lld ms (min %lld, max %lld)", times.at(times.size() / 2),
          times.first(), times.last());
    // The target (50 ms) is the benchmark's; a test on a shared, loaded machine only checks that
    // this is the warm path and not a new python per run (~300+ ms).
    QVERIFY2(times.at(times.size() / 2) < 250,
             qPrintable(QString::number(times.at(times.size() / 2))));
    QCOMPARE(interp->currentTransport(), CodeInterpreter::Transport::Serve);
}

void TestCodeRunTransport::nextServeProcessTakesOver()
{
    auto interp = m_fx.interpreter(true);
    interp->setServeLifetime(2);
    RunCodeOptions opts;
    opts.contextId = newContext(*interp);
    QVERIFY(runToEnd(*interp, "count = 0", opts)->execution().success());
    QSet<int> seen;
    QElapsedTimer t;
    t.start();
    int runs = 0;
    while (t.elapsed() < 7000) { // across at least two hand-overs
        CodeRun* run = runToEnd(*interp, "count += 1\ncount", opts);
        QVERIFY2(run->execution().success(), describe(run));
        ++runs;
        QCOMPARE(run->execution().text(), QString::number(runs));
        for (int pid : servePids())
            seen.insert(pid);
        QTest::qWait(200);
    }
    QVERIFY2(seen.size() >= 3, qPrintable(QString::number(seen.size())));
}

void TestCodeRunTransport::deadServeStreamFallsBackToExecPerRun()
{
    auto interp = m_fx.interpreter(true);
    RunCodeOptions opts;
    opts.contextId = newContext(*interp);
    QVERIFY(runToEnd(*interp, "survivor = 'yes'", opts)->execution().success());
    QTRY_COMPARE_WITH_TIMEOUT(interp->currentTransport(), CodeInterpreter::Transport::Serve, 60000);
    QSignalSpy transport(interp.get(), &CodeInterpreter::transportChanged);
    CodeRun* inFlight = interp->runCode("import time; time.sleep(4)", opts);
    QTest::qWait(1000);
    // SIGKILL to the serve process alone, from inside the sandbox (the processes API would signal
    // its whole tree, kernels included): its stream ends, the kernels stay. The processes API
    // names it by the argv it was started with (its /proc command line may be the warm
    // python3's it was forked from).
    QStringList serving;
    for (int pid : servePids())
        serving << QString::number(pid);
    QVERIFY(!serving.isEmpty());
    const QString killed = m_fx.shell("kill -9 " + serving.join(' ') + " && echo killed");
    QVERIFY2(killed.contains("killed"), qPrintable(killed));
    QVERIFY(lizard::test::waitRun(inFlight, 60000));
    QVERIFY2(inFlight->hasFailed(),
             describe(inFlight)); // it may or may not have run: never re-sent
    QVERIFY(inFlight->failure()->message.contains("may or may not have run"));
    QTRY_VERIFY_WITH_TIMEOUT(!transport.isEmpty(), 30000);
    QCOMPARE(transport.last().first().value<CodeInterpreter::Transport>(),
             CodeInterpreter::Transport::ExecPerRun);
    QCOMPARE(interp->currentTransport(), CodeInterpreter::Transport::ExecPerRun);
    // The kernel outlived the serve process: the fallback finds the state.
    CodeRun* after = runToEnd(*interp, "survivor", opts);
    QVERIFY2(after->execution().success(), describe(after));
    QCOMPARE(after->execution().text(), QString("'yes'"));
}

void TestCodeRunTransport::contextsCreateListRestartDelete()
{
    auto interp = m_fx.interpreter(true);
    QSignalSpy changed(interp.get(), &CodeInterpreter::contextsChanged);
    const QString py = newContext(*interp);
    QVERIFY(py.startsWith("ctx-"));
    lizard::test::ApiWaiter<client::CodeContext> bash;
    interp->createContext("sh", "/tmp/work", nullptr, bash.done());
    LIZ_AWAIT_OK(bash);
    QCOMPARE(bash.value().language, QString("bash"));
    QCOMPARE(bash.value().cwd, QString("/tmp/work"));
    QCOMPARE(changed.size(), 2);
    const QList<client::CodeContext> listed = contexts(*interp);
    QVERIFY(listed.contains(client::CodeContext{py, "python", "/home/user"}));
    QVERIFY(listed.contains(bash.value()));
    for (const client::CodeContext& c : listed)
        QVERIFY(!c.id.startsWith("default-"));

    RunCodeOptions opts;
    opts.contextId = py;
    QVERIFY(runToEnd(*interp, "gone = 1", opts)->execution().success());
    lizard::test::ApiWaiter<client::Unit> restarted;
    interp->restartContext(py, nullptr, restarted.done());
    LIZ_AWAIT_OK(restarted);
    QCOMPARE(runToEnd(*interp, "gone", opts)->execution().error->name, QString("NameError"));

    for (const QString& id : {py, bash.value().id}) {
        lizard::test::ApiWaiter<client::Unit> deleted;
        interp->deleteContext(id, nullptr, deleted.done());
        LIZ_AWAIT_OK(deleted);
    }
    const QList<client::CodeContext> after = contexts(*interp);
    for (const client::CodeContext& c : after)
        QVERIFY(c.id != py && c.id != bash.value().id);
    lizard::test::ApiWaiter<client::Unit> again;
    interp->deleteContext(py, nullptr, again.done());
    QVERIFY(again.wait() && !again.ok());
    QVERIFY(again.error().message.contains("not found"));
}

void TestCodeRunTransport::sdkContextIsListedAndUsable()
{
    const QString sdk = QStringLiteral(LIZARD_SDK_DIR "/dist/index.mjs");
    if (!QFile::exists(sdk) || QStandardPaths::findExecutable("node").isEmpty())
        QSKIP("the pinned SDK is not installed (npm ci in tests/compat) or node is missing");
    QProcess node;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LIZARD_API_URL", m_fx.server().url());
    env.insert("LIZARD_API_KEY", m_fx.server().apiKey());
    node.setProcessEnvironment(env);
    node.start("node", {QStringLiteral(LIZARD_RUNNER_TESTS_DIR "/sdk_interop.mjs"), sdk,
                        m_fx.sandboxId(), "make"});
    QVERIFY(node.waitForFinished(120000));
    const QByteArray out = node.readAllStandardOutput().trimmed();
    QVERIFY2(node.exitCode() == 0, node.readAllStandardError().constData());
    const QString theirs = QJsonDocument::fromJson(out.mid(out.lastIndexOf('\n') + 1))
                               .object()
                               .value("context")
                               .toObject()
                               .value("id")
                               .toString();
    QVERIFY2(theirs.startsWith("ctx-"), out.constData());

    auto interp = m_fx.interpreter(true);
    bool listed = false;
    for (const client::CodeContext& c : contexts(*interp))
        listed = listed || (c.id == theirs && c.language == "python");
    QVERIFY2(listed, qPrintable(theirs));
    RunCodeOptions opts;
    opts.contextId = theirs;
    CodeRun* run = runToEnd(*interp, "sdk_var * 6", opts);
    QVERIFY2(run->execution().success(), describe(run));
    QCOMPARE(run->execution().text(), QString("42")); // the SDK's kernel, with its variable
    QVERIFY(run->execution().notices.isEmpty());
}

void TestCodeRunTransport::saveAllVariablesForAFork()
{
    auto interp = m_fx.interpreter(true);
    RunCodeOptions opts;
    opts.contextId = newContext(*interp);
    QVERIFY(runToEnd(*interp, "import json\nrows = [1, 2, 3]\nfh = open('/etc/hostname')", opts)
                ->execution()
                .success());
    QCOMPARE(m_fx.shell("test -x /tmp/.lizard-code/.hooks/pre-snapshot && echo hook"),
             QString("hook\n"));

    lizard::test::ApiWaiter<QList<client::ContextVariables>> saved;
    interp->saveAllVariables(nullptr, saved.done());
    LIZ_AWAIT_OK(saved);
    const auto mine = std::find_if(
        saved.value().begin(), saved.value().end(),
        [&](const client::ContextVariables& c) { return c.contextId == opts.contextId; });
    QVERIFY(mine != saved.value().end());
    QVERIFY2(mine->error.isEmpty(), qPrintable(mine->error));
    QCOMPARE(mine->report.names, QStringList{"rows"});
    QCOMPARE(mine->report.skipped.size(), 2); // json (a module), fh (an open file)

    // A fork as seen from inside: the same files under another context, no kernel of its own.
    const QString copy = "ctx-f0f0f0f0f0f0f0f0";
    const QString src = "/tmp/.lizard-code/" + opts.contextId, dst = "/tmp/.lizard-code/" + copy;
    QCOMPARE(m_fx.shell(QString("cp -a %1 %2 && sed -i 's/%3/%4/' %2/meta.json && echo copied")
                            .arg(src, dst, opts.contextId, copy)),
             QString("copied\n"));
    RunCodeOptions forked;
    forked.contextId = copy;
    CodeRun* run = runToEnd(*interp, "sum(rows)", forked);
    QVERIFY2(run->execution().success(), describe(run));
    QCOMPARE(run->execution().text(), QString("6"));
    const QString notices = run->execution().notices.join('\n');
    QVERIFY2(notices.contains("came along: rows") && notices.contains("fh (an open file"),
             qPrintable(notices));
}

QTEST_GUILESS_MAIN(TestCodeRunTransport)
#include "tst_coderuntransport.moc"
