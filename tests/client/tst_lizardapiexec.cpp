// LizardApi commands against a real lizard-local: exec (shell and argv), streaming exec with
// pid/stdout/stderr/exit ordering, processes and signals, cancellation, context objects, and
// the event loop staying responsive during a long command.

#include "support/apiwait.h"
#include "support/sandboxfixture.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <memory>

using namespace lizard::client;
using lizard::test::ApiWaiter;

namespace {

// Everything a stream emitted, in order, as text lines.
struct StreamLog
{
    QStringList events;
    int pid = 0;
    int exitCode = -1000;
    bool ended = false;
    ApiError error;

    void attach(ExecStream* s, QObject* ctx)
    {
        QObject::connect(s, &ExecStream::started, ctx, [this](int p) {
            pid = p;
            events << QStringLiteral("pid");
        });
        QObject::connect(s, &ExecStream::output, ctx, [this](const QList<OutputLine>& lines) {
            for (const OutputLine& l : lines)
                events << (l.stream == OutputStream::Stdout ? "out:" : "err:") + l.text;
        });
        QObject::connect(s, &ExecStream::exited, ctx, [this](int code) {
            exitCode = code;
            ended = true;
            events << QStringLiteral("exit %1").arg(code);
        });
        QObject::connect(s, &ExecStream::failed, ctx, [this](const ApiError& e) {
            error = e;
            ended = true;
            events << "failed: " + e.toDisplayString();
        });
    }
};

} // namespace

class TestLizardApiExec : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }
    void execShell();
    void execOptions();
    void execArgvPassesTextVerbatim();
    void streamOrdering();
    void streamArgv();
    void processesAndSignal();
    void cancelRunningStream();
    void destroyedContextMeansNoCallback();
    void eventLoopKeepsTicking();

private:
    LizardApi& api() { return m_fx.api(); }
    QString sb() const { return m_fx.sandboxId(); }
    QList<int> processPids();

    lizard::test::SandboxFixture m_fx;
};

void TestLizardApiExec::initTestCase()
{
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
}

void TestLizardApiExec::cleanupTestCase()
{
    m_fx.stop();
}

void TestLizardApiExec::execShell()
{
    ApiWaiter<ExecResult> r;
    api().exec(sb(), QStringLiteral("echo out; echo err >&2; exit 3"), {}, this, r.done());
    LIZ_AWAIT_OK(r);
    QCOMPARE(r.value().stdoutText, QStringLiteral("out\n"));
    QCOMPARE(r.value().stderrText, QStringLiteral("err\n"));
    QCOMPARE(r.value().exitCode, 3);
    QVERIFY(!r.value().truncated);
}

void TestLizardApiExec::execOptions()
{
    ExecOptions o;
    o.envs.insert(QStringLiteral("GREETING"), QString::fromUtf8("héllo"));
    o.workdir = QStringLiteral("/tmp");
    ApiWaiter<ExecResult> r;
    api().exec(sb(), QStringLiteral("echo \"$GREETING\"; pwd"), o, this, r.done());
    LIZ_AWAIT_OK(r);
    QCOMPARE(r.value().stdoutText, QString::fromUtf8("héllo\n/tmp\n"));
}

void TestLizardApiExec::execArgvPassesTextVerbatim()
{
    const QStringList argv{"printf", "%s|", "$(echo injected)", "a b", "'; rm -rf /tmp/x"};
    ApiWaiter<ExecResult> r;
    api().execArgv(sb(), argv, {}, this, r.done());
    LIZ_AWAIT_OK(r);
    QCOMPARE(r.value().stdoutText, QStringLiteral("$(echo injected)|a b|'; rm -rf /tmp/x|"));
    QCOMPARE(r.value().exitCode, 0);
}

void TestLizardApiExec::streamOrdering()
{
    std::unique_ptr<ExecStream> s(api().execStream(
        sb(), QStringLiteral("echo one; sleep 0.2; echo two >&2; sleep 0.2; echo three; exit 4"),
        {}));
    StreamLog log;
    log.attach(s.get(), this);
    QTRY_VERIFY_WITH_TIMEOUT(log.ended, 30000);
    QCOMPARE(log.events, QStringList({"pid", "out:one", "err:two", "out:three", "exit 4"}));
    QVERIFY(log.pid > 0);
}

void TestLizardApiExec::streamArgv()
{
    std::unique_ptr<ExecStream> s(api().execStreamArgv(
        sb(), {"sh", "-c", "for i in 1 2 3; do echo line $i; done; printf 'no newline'"}, {}));
    StreamLog log;
    log.attach(s.get(), this);
    QTRY_VERIFY_WITH_TIMEOUT(log.ended, 30000);
    QCOMPARE(log.events, QStringList({"pid", "out:line 1", "out:line 2", "out:line 3",
                                      "out:no newline", "exit 0"}));
}

QList<int> TestLizardApiExec::processPids()
{
    ApiWaiter<QList<ProcessInfo>> listed;
    api().listProcesses(sb(), this, listed.done());
    if (!listed.wait() || !listed.ok())
        return {-1};
    QList<int> pids;
    for (const ProcessInfo& p : listed.value())
        pids << p.pid;
    return pids;
}

void TestLizardApiExec::processesAndSignal()
{
    std::unique_ptr<ExecStream> s(api().execStream(sb(), QStringLiteral("sleep 30"), {}));
    StreamLog log;
    log.attach(s.get(), this);
    QTRY_VERIFY_WITH_TIMEOUT(log.pid > 0, 30000);

    ApiWaiter<QList<ProcessInfo>> listed;
    api().listProcesses(sb(), this, listed.done());
    LIZ_AWAIT_OK(listed);
    const auto it = std::find_if(listed.value().begin(), listed.value().end(),
                                 [&](const ProcessInfo& p) { return p.pid == log.pid; });
    QVERIFY(it != listed.value().end());
    QVERIFY(it->command.contains(QStringLiteral("sleep 30")));

    QElapsedTimer clock;
    clock.start();
    ApiWaiter<Unit> signalled;
    api().signalProcess(sb(), log.pid, QStringLiteral("SIGKILL"), this, signalled.done());
    LIZ_AWAIT_OK(signalled);
    QTRY_VERIFY_WITH_TIMEOUT(log.ended, 10000);
    QVERIFY(clock.elapsed() < 10000);
    QVERIFY2(log.exitCode != 0, qPrintable(log.events.join(QLatin1Char('\n'))));
    QTRY_VERIFY_WITH_TIMEOUT(!processPids().contains(log.pid), 10000);
}

void TestLizardApiExec::cancelRunningStream()
{
    std::unique_ptr<ExecStream> s(
        api().execStream(sb(), QStringLiteral("sleep 60; echo never"), {}));
    StreamLog log;
    log.attach(s.get(), this);
    QTRY_VERIFY_WITH_TIMEOUT(log.pid > 0, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(processPids().contains(log.pid), 10000);
    s->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(log.ended, 5000);
    QCOMPARE(log.error.kind, ApiError::Kind::Cancelled);
    // Hanging up stops the command on the server.
    QTRY_VERIFY_WITH_TIMEOUT(!processPids().contains(log.pid), 15000);
    QTest::qWait(100);
    QCOMPARE(log.events, QStringList({"pid", "failed: Run command was cancelled"}));
}

void TestLizardApiExec::destroyedContextMeansNoCallback()
{
    auto* ctx = new QObject;
    bool called = false;
    QPointer<PendingCall> call = api().exec(sb(), QStringLiteral("sleep 1; echo late"), {}, ctx,
                                            [&](Outcome<ExecResult>) { called = true; });
    QTest::qWait(200);
    delete ctx;
    QVERIFY(call.isNull());
    QTest::qWait(1800);
    QVERIFY(!called);
    // The API still works afterwards.
    ApiWaiter<ExecResult> r;
    api().exec(sb(), QStringLiteral("echo fine"), {}, this, r.done());
    LIZ_AWAIT_OK(r);
    QCOMPARE(r.value().stdoutText, QStringLiteral("fine\n"));
}

void TestLizardApiExec::eventLoopKeepsTicking()
{
    // A blocked loop would show one gap of about 2 s between ticks; a live one only short gaps
    // (generous bound: the machine may be busy).
    QElapsedTimer clock;
    clock.start();
    qint64 lastTick = 0;
    qint64 longestGap = 0;
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, this, [&] {
        longestGap = std::max(longestGap, clock.elapsed() - lastTick);
        lastTick = clock.elapsed();
        ++ticks;
    });
    ticker.start(20);
    ApiWaiter<ExecResult> r;
    api().exec(sb(), QStringLiteral("sleep 2; echo done"), {}, this, r.done());
    QVERIFY(!r.arrived());
    LIZ_AWAIT_OK(r);
    QVERIFY(clock.elapsed() >= 1900);
    QCOMPARE(r.value().stdoutText, QStringLiteral("done\n"));
    QVERIFY2(ticks >= 20 && longestGap < 600,
             qPrintable(QStringLiteral("%1 ticks in %2 ms, longest gap %3 ms")
                            .arg(ticks)
                            .arg(clock.elapsed())
                            .arg(longestGap)));
}

QTEST_GUILESS_MAIN(TestLizardApiExec)
#include "tst_lizardapiexec.moc"
