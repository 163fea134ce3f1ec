// The code runner's persistent "serve" mode (the app's warm fast path), on this host: requests as
// files in its inbox, events tagged with the request id, concurrency, interrupt, shutdown.
#include "runner/runnerhost.h"
#include "runner/servesession.h"
#include "support/proctree.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <csignal>
#include <memory>

using lizard::test::RunnerHost;
using lizard::test::RunnerOutcome;
using lizard::test::ServeSession;

namespace {

// An outcome's events without the fields that differ between runs or modes.
QList<QJsonObject> comparable(const RunnerOutcome& outcome)
{
    QList<QJsonObject> events;
    for (QJsonObject e : outcome.events) {
        e.remove("req");
        if (e.value("type").toString() == "error") {
            e.remove("traceback");
            e.remove("traceback_ansi");
        }
        events.append(e);
    }
    return events;
}

} // namespace

class TestRunnerServe : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void answersRequestsWrittenAsFiles();
    void warmRunsAnswer();
    void sameEventsAsOneShot();
    void contextsRunConcurrently();
    void interruptStopsTheRunningCell();
    void badRequestFileIsReported();
    void requestWrittenInPlace_data();
    void requestWrittenInPlace();
    void inboxIsInvisibleToContextListing();
    void shutdownRequestEndsIt();
    void lifetimeDrainsThenExits();
    void exitsWhenStdoutIsClosed();
    void kernelOutlivesAKilledServeTree();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<RunnerHost> m_host;
    std::unique_ptr<ServeSession> m_serve;
};

namespace {
// What the agent does to a cancelled exec: SIGKILL for the process and all its descendants.
void killTree(qint64 root)
{
    const QList<lizard::test::ProcEntry> tree = lizard::test::descendants(root);
    ::kill(pid_t(root), SIGKILL);
    for (const lizard::test::ProcEntry& p : tree)
        ::kill(pid_t(p.pid), SIGKILL);
}
} // namespace

void TestRunnerServe::initTestCase()
{
    if (RunnerHost::python().isEmpty())
        QSKIP(
            "no python3 with jupyter_client and ipykernel (scripts/install-deps.sh installs them)");
}

void TestRunnerServe::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_host = std::make_unique<RunnerHost>(m_dir->path() + "/code");
    m_serve = std::make_unique<ServeSession>(*m_host);
    QVERIFY2(m_serve->start(), qPrintable(m_serve->error()));
    QCOMPARE(m_serve->readyEvent().value("watch").toString(), QString("inotify"));
    QCOMPARE(m_serve->readyEvent().value("inbox").toString(), m_host->root() + "/.requests");
}

void TestRunnerServe::cleanup()
{
    m_serve.reset();
    m_host->killKernels();
    m_host.reset();
    m_dir.reset();
}

void TestRunnerServe::kernelOutlivesAKilledServeTree()
{
    // The app closed a notebook (or lost its connection): the serve exec is cancelled and the
    // agent kills its tree. Kernels it started live on, like those of one-shot runs.
    const RunnerOutcome created =
        m_serve->request({{"action", "create"}, {"language", "python"}, {"cwd", m_host->cwd()}});
    const QString ctx = created.first("context").value("id").toString();
    QVERIFY2(!ctx.isEmpty(), qPrintable(created.describe()));
    QVERIFY(m_serve->request({{"action", "run"}, {"context", ctx}, {"code", "kept = 5"}}).finished);
    killTree(m_serve->process().processId());
    QVERIFY(m_serve->process().waitForFinished(10000));
    m_serve = std::make_unique<ServeSession>(*m_host);
    QVERIFY2(m_serve->start(), qPrintable(m_serve->error()));
    const RunnerOutcome after =
        m_serve->request({{"action", "run"}, {"context", ctx}, {"code", "kept + 1"}});
    QCOMPARE(after.first("result").value("data").toString(), QString("6"));
}

void TestRunnerServe::answersRequestsWrittenAsFiles()
{
    const RunnerOutcome created =
        m_serve->request({{"action", "create"}, {"language", "python"}, {"cwd", m_host->cwd()}});
    const QString ctx = created.first("context").value("id").toString();
    QVERIFY2(ctx.startsWith("ctx-"), qPrintable(created.describe()));

    const RunnerOutcome set = m_serve->request(
        {{"req", "my-1"}, {"action", "run"}, {"context", ctx}, {"code", "v = 20"}});
    QVERIFY(set.finished);
    for (const QJsonObject& e : set.events)
        QCOMPARE(e.value("req").toString(), QString("my-1")); // every event says which request
    const RunnerOutcome get = m_serve->request(
        {{"action", "run"}, {"context", ctx}, {"code", "print('v is', v)\nv + 22"}});
    QCOMPARE(get.text("stdout"), QString("v is 20\n"));
    QCOMPARE(get.first("result").value("data").toString(), QString("42"));
    QCOMPARE(get.first("done").value("execution_count").toInt(), 2);

    const RunnerOutcome list = m_serve->request({{"action", "list"}});
    QCOMPARE(list.first("contexts").value("data").toArray().size(), 1);
    QVERIFY(QDir(m_host->root() + "/.requests").isEmpty()); // requests are taken away
}

void TestRunnerServe::warmRunsAnswer()
{
    const QJsonObject run{
        {"action", "run"}, {"language", "python"}, {"cwd", m_host->cwd()}, {"code", "1+1"}};
    QCOMPARE(m_serve->request(run).first("result").value("data").toString(),
             QString("2")); // starts the kernel
    QList<qint64> times;
    for (int i = 0; i < 25; ++i) {
        const RunnerOutcome r = m_serve->request(run);
        QCOMPARE(r.first("result").value("data").toString(), QString("2"));
        times.append(r.elapsedMs);
    }
    std::sort(times.begin(), times.end());
    const qint64 median = times.at(times.size() / 2);
    qInfo("serve mode, warm 1+1 on this host: median %lld ms (min %lld, max %lld) over %lld runs",
          median, times.first(), times.last(), static_cast<long long>(times.size()));
    // Informational: lizard-bench-coderun holds the target; a test under a loaded CI must not
    // fail on the machine's speed.
}

void TestRunnerServe::sameEventsAsOneShot()
{
    // The same requests, once through serve and once one-shot, in two fresh contexts.
    const QStringList cells{"a = 6", "print('a =', a)\na * 7", "undefined_name",
                            "from IPython.display import HTML, display\ndisplay(HTML('<b>x</b>'))"};
    QList<QList<QJsonObject>> modes;
    for (bool serve : {true, false}) {
        const QJsonObject create{
            {"action", "create"}, {"language", "python"}, {"cwd", m_host->cwd()}};
        const RunnerOutcome created = serve ? m_serve->request(create) : m_host->run(create);
        const QString ctx = created.first("context").value("id").toString();
        QVERIFY(!ctx.isEmpty());
        QList<QJsonObject> all;
        for (const QString& code : cells) {
            const QJsonObject args{{"action", "run"}, {"context", ctx}, {"code", code}};
            all += comparable(serve ? m_serve->request(args) : m_host->run(args));
        }
        modes.append(all);
    }
    if (modes.at(0) != modes.at(1)) {
        for (const auto& mode : modes) {
            for (const QJsonObject& e : mode)
                qWarning("%s",
                         QJsonDocument(e).toJson(QJsonDocument::Compact).left(300).constData());
            qWarning("----");
        }
    }
    QCOMPARE(modes.at(0), modes.at(1));
    QVERIFY(modes.at(0).size() >= 8);
}

void TestRunnerServe::contextsRunConcurrently()
{
    const QJsonObject slow{{"action", "run"},
                           {"language", "python"},
                           {"cwd", m_host->cwd()},
                           {"code", "import time\ntime.sleep(4)\n'slow'"}};
    const QJsonObject fast{
        {"action", "run"}, {"language", "bash"}, {"cwd", m_host->cwd()}, {"code", "echo fast"}};
    QCOMPARE(m_serve->request(slow).first("result").value("data").toString(),
             QString("'slow'")); // warm
    const QString slowReq = m_serve->submit(slow);
    const QString sameCtxReq =
        m_serve->submit({{"action", "run"}, {"language", "python"}, {"code", "'after'"}});
    const RunnerOutcome quick = m_serve->request(fast);
    QCOMPARE(quick.text("stdout"), QString("fast\n"));
    QVERIFY2(quick.elapsedMs < 3000,
             qPrintable(quick.describe())); // not queued behind the python cell
    const RunnerOutcome slowDone = m_serve->waitFor(slowReq);
    QCOMPARE(slowDone.first("result").value("data").toString(), QString("'slow'"));
    // One request at a time per context: the second python cell ran after the first.
    const RunnerOutcome after = m_serve->waitFor(sameCtxReq);
    QCOMPARE(after.first("done").value("execution_count").toInt(),
             slowDone.first("done").value("execution_count").toInt() + 1);
}

void TestRunnerServe::interruptStopsTheRunningCell()
{
    const QString ctx = m_serve->request({{"action", "create"}, {"cwd", m_host->cwd()}})
                            .first("context")
                            .value("id")
                            .toString();
    QVERIFY(!ctx.isEmpty());
    const QString running = m_serve->submit(
        {{"action", "run"},
         {"context", ctx},
         {"code", "import time\nkept = 3\nprint('go', flush=True)\ntime.sleep(60)"}});
    QVERIFY(m_serve->waitForEvent(running, "stdout", 20000));
    const RunnerOutcome interrupt = m_serve->request({{"action", "interrupt"}, {"context", ctx}});
    QCOMPARE(interrupt.first("ok").value("interrupted").toBool(), true);
    const RunnerOutcome stopped = m_serve->waitFor(running, 20000);
    QCOMPARE(stopped.first("error").value("name").toString(), QString("KeyboardInterrupt"));
    const RunnerOutcome after =
        m_serve->request({{"action", "run"}, {"context", ctx}, {"code", "kept"}});
    QVERIFY2(after.first("result").value("data").toString() == "3", qPrintable(after.describe()));
}

void TestRunnerServe::badRequestFileIsReported()
{
    QFile junk(m_host->root() + "/.requests/req-junk.json");
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("{not json");
    junk.close();
    const RunnerOutcome bad = m_serve->waitFor("junk", 10000);
    QVERIFY2(bad.first("fatal").value("message").toString().contains("unreadable request"),
             qPrintable(bad.describe()));
    const RunnerOutcome unknown =
        m_serve->request({{"action", "run"}, {"context", "../x"}, {"code", "1"}});
    QVERIFY(unknown.first("fatal").value("message").toString().contains("invalid context id"));
    // It keeps serving.
    QCOMPARE(
        m_serve->request({{"action", "list"}}).first("contexts").value("data").toArray().size(), 0);
}

void TestRunnerServe::requestWrittenInPlace_data()
{
    QTest::addColumn<QString>("watch");
    QTest::newRow("inotify") << "inotify";
    QTest::newRow("poll") << "poll";
}

void TestRunnerServe::requestWrittenInPlace()
{
    // Not every writer renames a finished temp file: a request written straight to its final
    // name, in two pieces with a pause between, must still be read whole, exactly once.
    QFETCH(QString, watch);
    ServeSession session(*m_host);
    QVERIFY2(session.start({{"inbox", "inplace-" + watch}, {"watch", watch}}),
             qPrintable(session.error()));
    QCOMPARE(session.readyEvent().value("watch").toString(), watch);
    const QByteArray request = QJsonDocument(QJsonObject{{"req", "slow-writer"},
                                                         {"action", "run"},
                                                         {"language", "bash"},
                                                         {"cwd", m_host->cwd()},
                                                         {"code", "echo whole"}})
                                   .toJson(QJsonDocument::Compact);
    QFile f(session.readyEvent().value("inbox").toString() + "/req-slow-writer.json");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(request.left(20));
    f.flush();
    QTest::qWait(300);
    f.write(request.mid(20));
    f.close();
    const RunnerOutcome run = session.waitFor("slow-writer", 20000);
    QCOMPARE(run.text("stdout"), QString("whole\n"));
    QVERIFY(run.ofType("fatal").isEmpty());
    const RunnerOutcome after = session.request({{"action", "list"}});
    QVERIFY(after.finished);
    QVERIFY(session.waitFor("slow-writer", 500).events.isEmpty()); // answered once only
}

void TestRunnerServe::inboxIsInvisibleToContextListing()
{
    m_serve->request(
        {{"action", "run"}, {"language", "bash"}, {"cwd", m_host->cwd()}, {"code", "true"}});
    m_serve->request({{"action", "create"}, {"language", "bash"}, {"cwd", m_host->cwd()}});
    // The SDK's `list` takes every directory of the root that holds a meta.json.
    QStringList withMeta;
    for (const QString& name :
         QDir(m_host->root()).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden)) {
        if (QFile::exists(m_host->root() + "/" + name + "/meta.json"))
            withMeta << name;
    }
    QCOMPARE(withMeta.size(), 2);
    QVERIFY(withMeta.contains("default-bash"));
    QVERIFY(withMeta.first().startsWith("ctx-"));
}

void TestRunnerServe::shutdownRequestEndsIt()
{
    const RunnerOutcome bye = m_serve->request({{"action", "shutdown"}});
    QVERIFY(!bye.first("ok").isEmpty());
    QVERIFY(m_serve->waitForExit(10000));
    QCOMPARE(m_serve->process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(m_serve->process().exitCode(), 0);
}

void TestRunnerServe::lifetimeDrainsThenExits()
{
    // The exec API caps a command at 600 s: with a lifetime, serve says "expiring" before that,
    // answers what is running or still arrives, then says "bye" and exits.
    ServeSession shortLived(*m_host);
    QVERIFY2(shortLived.start({{"inbox", "short"}, {"lifetime", 2}}),
             qPrintable(shortLived.error()));
    const QString inbox = m_host->root() + "/.requests/short";
    QCOMPARE(shortLived.readyEvent().value("inbox").toString(), inbox);
    const QString slow = shortLived.submit({{"action", "run"},
                                            {"language", "python"},
                                            {"cwd", m_host->cwd()},
                                            {"code", "import time\ntime.sleep(3)\n'late'"}});
    QVERIFY(shortLived.waitForEvent({}, "expiring", 20000));
    const RunnerOutcome straggler = shortLived.request(
        {{"action", "run"}, {"language", "bash"}, {"cwd", m_host->cwd()}, {"code", "echo still"}});
    QCOMPARE(straggler.text("stdout"), QString("still\n"));
    QCOMPARE(shortLived.waitFor(slow).first("result").value("data").toString(), QString("'late'"));
    QVERIFY(shortLived.waitForEvent({}, "bye", 20000));
    QVERIFY(shortLived.waitForExit(10000));
    QCOMPARE(shortLived.process().exitCode(), 0);
    QVERIFY(!QFile::exists(inbox)); // a named inbox is removed on the way out
}

void TestRunnerServe::exitsWhenStdoutIsClosed()
{
    // The app's exec stream goes away: the reader of the runner's stdout is gone. Here the reader
    // takes the "ready" line and quits; the runner must notice and exit 0 (pipefail shows its
    // code).
    const QString b64 =
        QString::fromLatin1(RunnerHost::encodeArgs({{"action", "serve"}, {"inbox", "second"}}));
    QProcess pipeline;
    pipeline.setProcessEnvironment(m_host->environment());
    pipeline.start(
        "bash", {"-c", "set -o pipefail; \"$0\" \"$1\" \"$2\" | { read -r line; echo \"$line\"; }",
                 RunnerHost::plainPython(), RunnerHost::script(), b64});
    QVERIFY(pipeline.waitForFinished(15000));
    QVERIFY(pipeline.readAllStandardOutput().contains("\"ready\""));
    QCOMPARE(pipeline.exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestRunnerServe)
#include "tst_runnerserve.moc"
