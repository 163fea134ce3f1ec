// Every execution ends: a streaming exec and a runCode, each under one fault per row (none,
// its timeout, a kill through the API, the sandbox's OOM killer, the kernel's death, lizard-local
// killed and started again, lizard-local stalled with SIGSTOP, the client going away), always end
// for the caller with an end event
// or a typed error (each row says which), within a bound, never silence. Where the client goes
// away, the server must not leave the process behind.
#include "tst_coderunsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <csignal>

using namespace lizard;
using namespace lizard::client;
using namespace lizard::test;

namespace {

// /proc/vmstat's oom_kill: OOM kills of the whole host so far (-1 when unreadable).
qint64 hostOomKills()
{
    QFile f(QStringLiteral("/proc/vmstat"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("oom_kill "))
            return line.mid(9).trimmed().toLongLong();
    return -1;
}

enum class Fault { None, Timeout, Kill, Oom, KernelDeath, ServerRestart, ServerStall, ClientAbort };

// What the caller must get: exited(code) / finished (with error `name`, empty: success), or
// failed with `kind` (and `code`, when given).
struct Expect
{
    bool ends = true; // exited / finished, else failed
    int exitCode = 0;
    bool timedOut = false;
    QString errorName;
    ApiError::Kind kind = ApiError::Kind::Server;
    QString code;
    bool oomKilled = false; // exec: lizard-local says the OOM killer ended it
};

constexpr int kEndBoundMs = 60000; // no ending may take longer than this after the fault
// The server's keep-alive interval here: a stalled stream is given up after three of them.
constexpr int kKeepaliveMs = 1000;
constexpr int kStallBoundMs = 3 * kKeepaliveMs + 2000;

} // namespace

Q_DECLARE_METATYPE(Fault)
Q_DECLARE_METATYPE(Expect)

class TestExecutionEnds : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void execEnds_data();
    void execEnds();
    void runCodeEnds_data();
    void runCodeEnds();

private:
    // The sandbox a row runs in: OOM rows use a `nano` one (1 GiB), so the OOM killer comes soon.
    QString sandboxFor(Fault fault);
    // Skips the row when the host gives the small sandbox no memory cgroup (rlimit instead).
    bool oomPossible(QString* why);
    void crashAndRestart();
    // SIGSTOPs lizard-local (its connections stay open, nothing moves); resumeServer undoes it.
    void stallServer();
    void resumeServer();
    // Runs `wait` (true once the run ended; bounded by kEndBoundMs), then resumes a stalled
    // server. Empty when it ended in time (a stall noticed within kStallBoundMs), else why not.
    QString awaitEnd(Fault fault, const std::function<bool()>& wait);
    // pids the exec API lists in sandbox `id`.
    QList<int> processes(const QString& id);
    bool alive(const QString& id, int pid);

    CodeRunFixture m_fx;
    qint64 m_stalledPid = 0; // the server stopped with SIGSTOP, until resumed
    QString m_small;         // the nano sandbox
    SandboxInfo m_smallInfo;
    QList<qint64> m_initPids;
};

void TestExecutionEnds::initTestCase()
{
    qputenv("LIZARD_HTTP_LIMITS", QByteArray("keepaliveMs=") + QByteArray::number(kKeepaliveMs));
    const QString error = m_fx.start();
    if (!error.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), error);
    CreateSandboxRequest req;
    req.projectId = m_fx.projectId();
    req.templateName = QStringLiteral("interpreter");
    req.size = QStringLiteral("nano");
    req.timeoutMs = 1800000;
    QString why;
    m_small = startSandbox(m_fx.api(), req, &why);
    QVERIFY2(!m_small.isEmpty(), qPrintable(why));
    const auto info = waitFor<SandboxInfo>(
        [&](QObject* ctx, auto done) { return m_fx.api().getSandbox(m_small, ctx, done); });
    QVERIFY(info && info->ok());
    m_smallInfo = info->value();
    for (const QString& id : {m_fx.sandboxId(), m_small}) {
        QFile f(m_fx.server().dataDir() + "/sandboxes/" + id + "/init.pid");
        if (f.open(QIODevice::ReadOnly))
            m_initPids
                << QString::fromLatin1(f.readAll()).simplified().section(' ', 0, 0).toLongLong();
    }
}

void TestExecutionEnds::cleanupTestCase()
{
    resumeServer(); // a row that failed while the server was stopped
    m_fx.reportIfFailed();
    if (!m_small.isEmpty())
        killSandbox(m_fx.api(), m_small);
    m_fx.stop();
    // Nothing of either sandbox (agent, kernels, commands) is left on the host.
    for (qint64 pid : m_initPids)
        QVERIFY2(
            waitUntil([pid] { return !QFile::exists(QStringLiteral("/proc/%1").arg(pid)); }, 30000),
            "a sandbox's init process is still there");
}

QString TestExecutionEnds::sandboxFor(Fault fault)
{
    return fault == Fault::Oom ? m_small : m_fx.sandboxId();
}

bool TestExecutionEnds::oomPossible(QString* why)
{
    if (m_smallInfo.limitsEnforcedBy == QLatin1String("cgroup") && m_smallInfo.memoryMb > 0)
        return true;
    *why = QStringLiteral("the host has no writable memory cgroup (limits enforced by \"%1\"): the "
                          "sandbox has no OOM killer to inject")
               .arg(m_smallInfo.limitsEnforcedBy);
    return false;
}

void TestExecutionEnds::crashAndRestart()
{
    QVERIFY(m_fx.server().crash());
    QVERIFY2(m_fx.server().start(), qPrintable(m_fx.server().errorString()));
}

void TestExecutionEnds::stallServer()
{
    m_stalledPid = m_fx.server().serverPid();
    QVERIFY(m_stalledPid > 1);
    QVERIFY(::kill(pid_t(m_stalledPid), SIGSTOP) == 0);
}

void TestExecutionEnds::resumeServer()
{
    if (m_stalledPid > 1)
        ::kill(pid_t(m_stalledPid), SIGCONT);
    // A server run through runuser: runuser stops itself when its child stops, and would sit
    // stopped through the end of the suite (its SIGTERM pending, lizard-local orphaned).
    if (m_stalledPid > 1 && m_fx.server().pid() > 1 && m_fx.server().pid() != m_stalledPid)
        ::kill(pid_t(m_fx.server().pid()), SIGCONT);
    m_stalledPid = 0;
}

QString TestExecutionEnds::awaitEnd(Fault fault, const std::function<bool()>& wait)
{
    QElapsedTimer sinceFault;
    sinceFault.start();
    const bool ended = wait();
    const qint64 endedAfter = sinceFault.elapsed();
    resumeServer();
    if (!ended)
        return QStringLiteral("no end event and no error: silence");
    if (fault == Fault::ServerStall && endedAfter >= kStallBoundMs)
        return QStringLiteral("ended %1 ms after the stall").arg(endedAfter);
    return {};
}

QList<int> TestExecutionEnds::processes(const QString& id)
{
    const auto listed = waitFor<QList<ProcessInfo>>(
        [&](QObject* ctx, auto done) { return m_fx.api().listProcesses(id, ctx, done); });
    QList<int> pids;
    if (listed && listed->ok())
        for (const ProcessInfo& p : listed->value())
            pids << p.pid;
    return pids;
}

bool TestExecutionEnds::alive(const QString& id, int pid)
{
    const auto r = waitFor<ExecResult>([&](QObject* ctx, auto done) {
        return m_fx.api().exec(
            id, QStringLiteral("test -e /proc/%1 && echo alive || echo gone").arg(pid), {}, ctx,
            done);
    });
    return !(r && r->ok() && r->value().stdoutText.trimmed() == QLatin1String("gone"));
}

void TestExecutionEnds::execEnds_data()
{
    QTest::addColumn<Fault>("fault");
    QTest::addColumn<QString>("command");
    QTest::addColumn<Expect>("expect");
    QTest::newRow("normal") << Fault::None << "echo started; exit 3" << Expect{true, 3};
    QTest::newRow("timeout") << Fault::Timeout << "echo started; sleep 30"
                             << Expect{true, 124, true};
    QTest::newRow("kill") << Fault::Kill << "echo started; exec sleep 60" << Expect{true, 128 + 9};
    // Each process may use the sandbox's memory (RLIMIT_DATA): a holder takes 400 MiB, so the
    // command, growing, fills the sandbox's memory cgroup first and the OOM killer takes it.
    QTest::newRow("oom")
        << Fault::Oom
        << "echo started; rm -f /tmp/held; python3 -c \"import time; b = b'y' * (400 << 20); "
           "open('/tmp/held', 'w').close(); time.sleep(10)\" >/dev/null 2>&1 & while [ ! -e "
           "/tmp/held ]; do sleep 0.05; done; exec python3 -c \"a = [b'x' * (32 << 20) for _ in "
           "range(100)]\""
        << Expect{true, 128 + 9, false, {}, ApiError::Kind::Server, {}, true};
    QTest::newRow("server restart")
        << Fault::ServerRestart << "echo started; sleep 60"
        << Expect{false, 0, false, {}, ApiError::Kind::Network, "CONNECTION_LOST"};
    // The connection stays open but nothing comes: given up after three keep-alive intervals.
    QTest::newRow("server stalled")
        << Fault::ServerStall << "echo started; sleep 60"
        << Expect{false, 0, false, {}, ApiError::Kind::Network, "CONNECTION_LOST"};
    // Control: a command silent for longer than the stall limit is not a stalled stream.
    QTest::newRow("silent command")
        << Fault::None << "echo started; sleep 5; exit 4" << Expect{true, 4};
    QTest::newRow("client abort") << Fault::ClientAbort << "echo started; sleep 60"
                                  << Expect{false, 0, false, {}, ApiError::Kind::Cancelled};
}

void TestExecutionEnds::execEnds()
{
    QFETCH(Fault, fault);
    QFETCH(QString, command);
    QFETCH(Expect, expect);
    QString why;
    if (fault == Fault::Oom && !oomPossible(&why))
        QSKIP(qPrintable(why));
    const QString sandbox = sandboxFor(fault);
    ExecOptions opts;
    // After a restart the command must still end by itself: by its timeout, which the sandbox
    // enforces without lizard-local.
    opts.timeoutMs = fault == Fault::Timeout ? 2000 : fault == Fault::ServerRestart ? 8000 : 120000;
    std::unique_ptr<ExecStream> stream(m_fx.api().execStream(sandbox, command, opts));
    int pid = 0;
    QStringList out;
    connect(stream.get(), &ExecStream::started, this, [&pid](int p) { pid = p; });
    connect(stream.get(), &ExecStream::output, this, [&out](const QList<OutputLine>& lines) {
        for (const OutputLine& l : lines)
            out << l.text;
    });
    QSignalSpy exited(stream.get(), &ExecStream::exited);
    QSignalSpy failed(stream.get(), &ExecStream::failed);
    bool timedOut = false;
    bool oomKilled = false;
    connect(stream.get(), &ExecStream::exited, this, [&] {
        timedOut = stream->timedOut();
        oomKilled = stream->oomKilled();
    });
    QVERIFY2(waitUntil([&] { return out.contains("started") && pid > 0; }, 60000),
             qPrintable(out.join('\n')));

    switch (fault) {
    case Fault::Kill: {
        const auto sent = waitFor<Unit>([&](QObject* ctx, auto done) {
            return m_fx.api().signalProcess(sandbox, pid, QStringLiteral("SIGKILL"), ctx, done);
        });
        QVERIFY(sent && sent->ok());
        break;
    }
    case Fault::ServerRestart:
        crashAndRestart();
        break;
    case Fault::ServerStall:
        stallServer();
        break;
    case Fault::ClientAbort:
        stream->cancel();
        break;
    default:
        break;
    }
    const QString late = awaitEnd(fault, [&] {
        return waitUntil([&] { return exited.count() + failed.count() > 0; }, kEndBoundMs);
    });
    QVERIFY2(late.isEmpty(), qPrintable(late));
    QTest::qWait(100); // nothing may follow the end
    QCOMPARE(exited.count() + failed.count(), 1);
    if (expect.ends) {
        QVERIFY2(exited.count() == 1,
                 failed.isEmpty()
                     ? ""
                     : qPrintable(failed.at(0).at(0).value<ApiError>().toDisplayString()));
        QCOMPARE(exited.at(0).at(0).toInt(), expect.exitCode);
        QCOMPARE(timedOut, expect.timedOut);
        QCOMPARE(oomKilled, expect.oomKilled);
    } else {
        QVERIFY2(failed.count() == 1,
                 qPrintable(QString::number(exited.value(0).value(0).toInt())));
        const ApiError error = failed.at(0).at(0).value<ApiError>();
        QVERIFY2(error.kind == expect.kind, qPrintable(error.toDisplayString()));
        if (!expect.code.isEmpty())
            QCOMPARE(error.code, expect.code);
    }
    // Whatever the ending, the command's process is gone (killed, timed out, or stopped by the
    // server when the client went away); after a restart the adopted sandbox runs commands.
    QVERIFY2(waitUntil([&] { return !alive(sandbox, pid); }, 30000),
             qPrintable(QStringLiteral("pid %1 leaked").arg(pid)));
    QVERIFY(!processes(sandbox).contains(pid));
}

void TestExecutionEnds::runCodeEnds_data()
{
    QTest::addColumn<Fault>("fault");
    QTest::addColumn<QString>("code");
    QTest::addColumn<Expect>("expect");
    const QString sleeper =
        QStringLiteral("import time\nprint('started', flush=True)\ntime.sleep(30)");
    QTest::newRow("normal") << Fault::None << "print('started', flush=True)" << Expect{true};
    QTest::newRow("timeout") << Fault::Timeout << sleeper << Expect{true, 0, false, "TimeoutError"};
    QTest::newRow("kill") << Fault::Kill << sleeper
                          << Expect{false, 0, false, {}, ApiError::Kind::InvalidRequest, "RUNNER"};
    // As execEnds's: the kernel grows once the holder has its 400 MiB (a fixed pause lost the
    // race on a busy host, and the kernel met its own RLIMIT_DATA first: MemoryError).
    QTest::newRow("oom") << Fault::Oom
                         << "import os, subprocess, sys, time\n"
                            "if os.path.exists('/tmp/held-rc'): os.remove('/tmp/held-rc')\n"
                            "holder = subprocess.Popen([sys.executable, '-c', "
                            "\"import time; b = b'y' * (400 << 20); "
                            "open('/tmp/held-rc', 'w').close(); time.sleep(15)\"])\n"
                            "while not os.path.exists('/tmp/held-rc'): time.sleep(0.05)\n"
                            "print('started', flush=True)\n"
                            "a = [b'x' * (32 << 20) for _ in range(100)]"
                         << Expect{true, 0, false, "KernelDied"};
    QTest::newRow("kernel death") << Fault::KernelDeath << sleeper
                                  << Expect{true, 0, false, "KernelDied"};
    QTest::newRow("server restart")
        << Fault::ServerRestart << sleeper
        << Expect{false, 0, false, {}, ApiError::Kind::Network, "CONNECTION_LOST"};
    QTest::newRow("server stalled")
        << Fault::ServerStall << sleeper
        << Expect{false, 0, false, {}, ApiError::Kind::Network, "CONNECTION_LOST"};
    QTest::newRow("client abort") << Fault::ClientAbort << sleeper << Expect{};
}

void TestExecutionEnds::runCodeEnds()
{
    QFETCH(Fault, fault);
    QFETCH(QString, code);
    QFETCH(Expect, expect);
    QString why;
    if (fault == Fault::Oom && !oomPossible(&why))
        QSKIP(qPrintable(why));
    const QString sandbox = sandboxFor(fault);
    const QList<int> before = processes(sandbox);
    // The runner tells the OOM killer from a kill -9 by the system's OOM count (a sandbox sees
    // no cgroup of its own), which suites running beside this one can raise.
    const qint64 hostOomBefore = hostOomKills();
    auto interp = std::make_unique<CodeInterpreter>(&m_fx.api(), sandbox);
    RunCodeOptions opts;
    const auto context = waitFor<CodeContext>(
        [&](QObject* ctx, auto done) {
            interp->createContext(QStringLiteral("python"), {}, ctx, done);
        },
        120000);
    QVERIFY2(context && context->ok(), !context ? "no answer"
                                       : context->ok()
                                           ? ""
                                           : qPrintable(context->error().toDisplayString()));
    opts.contextId = context->value().id;
    opts.timeoutS = fault == Fault::Timeout ? 3 : 120;
    CodeRun* run = interp->runCode(code, opts);
    QVERIFY2(
        waitUntil(
            [&] { return run->execution().stdoutText.contains("started") || run->isFinished(); },
            120000),
        describe(run).constData());

    QList<int> runner; // the exec'd processes of this interpreter (its serve runner)
    for (int pid : processes(sandbox))
        if (!before.contains(pid))
            runner << pid;
    switch (fault) {
    case Fault::Kill:
        QVERIFY(!runner.isEmpty());
        for (int pid : runner) {
            const auto sent = waitFor<Unit>([&](QObject* ctx, auto done) {
                return m_fx.api().signalProcess(sandbox, pid, QStringLiteral("SIGKILL"), ctx, done);
            });
            QVERIFY(sent && sent->ok());
        }
        break;
    case Fault::KernelDeath: {
        const QString kill = QStringLiteral("kill -9 \"$(cat /tmp/.lizard-code/%1/kernel.pid)\"")
                                 .arg(opts.contextId);
        QCOMPARE(m_fx.shell(kill + " && echo killed").trimmed(), QString("killed"));
        break;
    }
    case Fault::ServerRestart:
        crashAndRestart();
        break;
    case Fault::ServerStall:
        stallServer();
        break;
    case Fault::ClientAbort: {
        // The app goes away mid-run: the interpreter (and its stream) with it. The caller is the
        // one who left; what matters is what the server keeps: not the runner process.
        QSignalSpy gone(run, &QObject::destroyed);
        interp.reset();
        QCOMPARE(gone.count(), 1);
        QVERIFY(!runner.isEmpty());
        for (int pid : runner)
            QVERIFY2(waitUntil([&] { return !alive(sandbox, pid); }, 30000),
                     qPrintable(QStringLiteral("runner pid %1 leaked").arg(pid)));
        return;
    }
    default:
        break;
    }
    const QString late = awaitEnd(fault, [&] { return waitRun(run, kEndBoundMs); });
    QVERIFY2(late.isEmpty(), qPrintable(late));
    if (expect.ends) {
        QVERIFY2(!run->hasFailed(), describe(run).constData());
        const auto& error = run->execution().error;
        QCOMPARE(error ? error->name : QString(), expect.errorName);
        // A kernel's death says whether the OOM killer or a kill -9 ended it.
        if (fault == Fault::Oom)
            QVERIFY2(error->message.contains("out of memory: the OOM killer ended it"),
                     qPrintable(error->message));
        if (fault == Fault::KernelDeath && hostOomKills() == hostOomBefore)
            QVERIFY2(error->message.contains("not by the OOM killer"), qPrintable(error->message));
        else if (fault == Fault::KernelDeath)
            qInfo("another process of the host was OOM-killed during the run: the runner's "
                  "words for a kill -9 are not checked this time (%s)",
                  qPrintable(error->message));
    } else {
        QVERIFY2(run->hasFailed(), describe(run).constData());
        QVERIFY2(run->failure()->kind == expect.kind, describe(run).constData());
        QCOMPARE(run->failure()->code, expect.code);
    }
    // The interpreter works on afterwards (a fresh kernel after a death, the adopted sandbox
    // after a restart).
    CodeRun* next = runToEnd(*interp, QStringLiteral("print(6 * 7)"), opts);
    QVERIFY2(next->isFinished() && !next->hasFailed() &&
                 next->execution().stdoutText.trimmed() == "42",
             describe(next).constData());
    const auto deleted = waitFor<Unit>(
        [&](QObject* ctx, auto done) { interp->deleteContext(opts.contextId, ctx, done); }, 60000);
    QVERIFY(deleted && deleted->ok()); // its kernel goes with it
    interp.reset();
    for (int pid : runner)
        QVERIFY2(waitUntil([&] { return !alive(sandbox, pid); }, 30000),
                 qPrintable(QStringLiteral("runner pid %1 leaked").arg(pid)));
}

QTEST_GUILESS_MAIN(TestExecutionEnds)
#include "tst_executionends.moc"
