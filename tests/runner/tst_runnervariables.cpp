// Notebook variables across a fork or restored snapshot, on this host: save_all, the
// pre-snapshot hook the runner installs, loading once in a fresh kernel elsewhere, and stale
// kernel.pid files (which after a fork name processes of another pid namespace).
#include "runner/runnerhost.h"
#include "runner/servesession.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <memory>

using lizard::test::RunnerHost;
using lizard::test::RunnerOutcome;
using lizard::test::ServeSession;

class TestRunnerVariables : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void saveAllSavesWhatItCanAndSaysWhy();
    void hookIsInstalledAndRunsSaveAll();
    void copiedContextLoadsVariablesOnce();
    void kernelDeathWhereSavedDoesNotLoad();
    void stalePidOfAnUnrelatedProcessIsLeftAlone();
    void saveAllInServeMode();

private:
    QString prepared(); // a context with variables of every kind, saved by save_all
    QString copyContext(const QString& from);
    static QStringList names(const QJsonArray& list, const QString& key = "name");

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<RunnerHost> m_host;
};

void TestRunnerVariables::initTestCase()
{
    if (RunnerHost::python().isEmpty())
        QSKIP(
            "no python3 with jupyter_client and ipykernel (scripts/install-deps.sh installs them)");
    QProcess dill;
    dill.start(RunnerHost::python(), {"-c", "import dill"});
    if (!dill.waitForFinished(30000) || dill.exitCode() != 0)
        QSKIP("no dill for the kernel's python (python3-dill)");
}

void TestRunnerVariables::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_host = std::make_unique<RunnerHost>(m_dir->path() + "/code");
}

void TestRunnerVariables::cleanup()
{
    m_host->killKernels();
    m_host.reset();
    m_dir.reset();
}

QStringList TestRunnerVariables::names(const QJsonArray& list, const QString& key)
{
    QStringList out;
    for (const QJsonValue& v : list)
        out << (v.isString() ? v.toString() : v.toObject().value(key).toString());
    out.sort();
    return out;
}

QString TestRunnerVariables::prepared()
{
    const QString ctx = m_host->createContext();
    if (ctx.isEmpty())
        return {};
    const RunnerOutcome set =
        m_host->runCode(ctx, "x = 41\nimport os\nf = open('/etc/hostname')\n"
                             "g = (i for i in range(3))\ndef h(): return x + 1\n"
                             "shared = [1]; alias = shared");
    if (!set.first("error").isEmpty())
        return {};
    const RunnerOutcome saved = m_host->run({{"action", "save_all"}});
    if (saved.first("ok").isEmpty())
        return {};
    return ctx;
}

QString TestRunnerVariables::copyContext(const QString& from)
{
    // What a fork looks like from inside: the same files, a kernel.pid that is not this
    // context's kernel. Here the copy is a new context id in the same root.
    const QString to = "ctx-c0c0c0c0c0c0c0c0";
    const QDir src(m_host->root() + "/" + from);
    QDir().mkpath(m_host->root() + "/" + to);
    for (const QString& name : src.entryList(QDir::Files | QDir::Hidden))
        QFile::copy(src.filePath(name), m_host->root() + "/" + to + "/" + name);
    QFile meta(m_host->root() + "/" + to + "/meta.json");
    if (!meta.open(QIODevice::ReadWrite))
        return {};
    QJsonObject m = QJsonDocument::fromJson(meta.readAll()).object();
    m["id"] = to;
    meta.resize(0);
    meta.write(QJsonDocument(m).toJson());
    return to;
}

void TestRunnerVariables::saveAllSavesWhatItCanAndSaysWhy()
{
    const QString ctx = m_host->createContext();
    QVERIFY(!ctx.isEmpty());
    QVERIFY(m_host
                ->runCode(
                    ctx, "x = 41\nimport os\nf = open('/etc/hostname')\ng = (i for i in range(3))\n"
                         "def h(): return x + 1")
                .first("error")
                .isEmpty());
    const QString idle = m_host->createContext("bash"); // not python: not part of it
    QVERIFY(!idle.isEmpty());
    const RunnerOutcome saved = m_host->run({{"action", "save_all"}});
    const QJsonArray contexts = saved.first("ok").value("contexts").toArray();
    QCOMPARE(contexts.size(), 1);
    const QJsonObject mine = contexts.first().toObject();
    QCOMPARE(mine.value("id").toString(), ctx);
    QCOMPARE(names(mine.value("saved").toArray()), QStringList({"h", "x"}));
    QCOMPARE(names(mine.value("skipped").toArray()), QStringList({"f", "g", "os"}));
    for (const QJsonValue& s : mine.value("skipped").toArray()) {
        const QString reason = s.toObject().value("reason").toString();
        const QString name = s.toObject().value("name").toString();
        const QString expected = name == "f" ? "open file" : name == "g" ? "generator" : "module";
        QVERIFY2(reason.contains(expected), qPrintable(name + ": " + reason));
    }
    const QString dir = m_host->root() + "/" + ctx;
    QVERIFY(QFileInfo(dir + "/variables.dill").size() > 0);
    QFile info(dir + "/variables.json");
    QVERIFY(info.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(info.readAll()).object();
    QCOMPARE(names(json.value("saved").toArray()), QStringList({"h", "x"}));
    QCOMPARE(json.value("context").toString(), ctx);
    // The kernel itself keeps running, untouched.
    QCOMPARE(m_host->runCode(ctx, "h()").first("result").value("data").toString(), QString("42"));
    // And the helpers are not mistaken for contexts.
    const QStringList listed =
        names(m_host->run({{"action", "list"}}).first("contexts").value("data").toArray(), "id");
    QStringList expected{ctx, idle};
    expected.sort();
    QCOMPARE(listed, expected);
}

void TestRunnerVariables::hookIsInstalledAndRunsSaveAll()
{
    const QString ctx = m_host->createContext();
    QVERIFY(!ctx.isEmpty());
    const QString hook = m_host->root() + "/.hooks/pre-snapshot";
    QVERIFY(QFileInfo(hook).isExecutable());
    QFile runner(m_host->root() + "/.runner.py");
    QVERIFY(runner.open(QIODevice::ReadOnly));
    QFile script(RunnerHost::script());
    QVERIFY(script.open(QIODevice::ReadOnly));
    QCOMPARE(runner.readAll(), script.readAll());

    QVERIFY(m_host->runCode(ctx, "y = 'kept'").first("error").isEmpty());
    QProcess sh;
    sh.setProcessEnvironment(m_host->environment());
    sh.start("/bin/sh", {hook}); // as the server runs it before a snapshot or fork
    QVERIFY(sh.waitForFinished(60000));
    QCOMPARE(sh.exitCode(), 0);
    const QByteArray out = sh.readAllStandardOutput().trimmed();
    const QJsonObject ok = QJsonDocument::fromJson(out.mid(out.lastIndexOf('\n') + 1)).object();
    QCOMPARE(ok.value("type").toString(), QString("ok"));
    QCOMPARE(names(ok.value("contexts").toArray().first().toObject().value("saved").toArray()),
             QStringList{"y"});
    QVERIFY(QFile::exists(m_host->root() + "/" + ctx + "/variables.dill"));
}

void TestRunnerVariables::copiedContextLoadsVariablesOnce()
{
    const QString source = prepared();
    QVERIFY(!source.isEmpty());
    const QString copy = copyContext(source);
    QVERIFY(!copy.isEmpty());
    // Its kernel.pid names the source's kernel: alive, an ipykernel, but not this context's.
    const RunnerOutcome first = m_host->runCode(copy, "h(), alias is shared");
    QVERIFY2(first.first("error").isEmpty(), qPrintable(first.describe()));
    QCOMPARE(first.first("result").value("data").toString(), QString("(42, True)"));
    const QList<QJsonObject> notices = first.ofType("notice");
    QCOMPARE(notices.size(), 2);
    QVERIFY(notices.at(0).value("message").toString().contains("kernel.pid names another process"));
    const QJsonObject loaded = notices.at(1);
    QVERIFY2(loaded.value("message").toString().contains("came along: alias, h, shared, x"),
             qPrintable(loaded.value("message").toString()));
    QVERIFY(loaded.value("message").toString().contains("f (an open file"));
    QCOMPARE(names(loaded.value("skipped").toArray()), QStringList({"f", "g", "os"}));
    QVERIFY(!QFile::exists(m_host->root() + "/" + copy + "/variables.dill"));
    QVERIFY(QFile::exists(m_host->root() + "/" + copy + "/variables.loaded.dill"));
    // The source's kernel was not touched.
    QCOMPARE(m_host->runCode(source, "x").first("result").value("data").toString(), QString("41"));

    // Loaded once: the copy's next fresh kernel starts empty.
    ::killpg(pid_t(RunnerHost::kernelPid(m_host->root(), copy)), SIGKILL);
    const RunnerOutcome again = m_host->runCode(copy, "x");
    QCOMPARE(again.first("error").value("name").toString(), QString("NameError"));
    QCOMPARE(again.ofType("notice").size(), 1);
}

void TestRunnerVariables::kernelDeathWhereSavedDoesNotLoad()
{
    const QString ctx = prepared();
    QVERIFY(!ctx.isEmpty());
    QVERIFY(
        m_host->runCode(ctx, "import os; os._exit(1)").first("error").value("name").toString() ==
        "KernelDied");
    const RunnerOutcome next = m_host->runCode(ctx, "x");
    QCOMPARE(next.first("error").value("name").toString(), QString("NameError"));
    QCOMPARE(next.ofType("notice").size(), 1); // "started a fresh kernel", nothing loaded
    QVERIFY(
        QFile::exists(m_host->root() + "/" + ctx + "/variables.dill")); // still there for a fork
}

void TestRunnerVariables::stalePidOfAnUnrelatedProcessIsLeftAlone()
{
    const QString ctx = m_host->createContext();
    QVERIFY(!ctx.isEmpty());
    QVERIFY(m_host->runCode(ctx, "z = 1").first("error").isEmpty());
    ::killpg(pid_t(RunnerHost::kernelPid(m_host->root(), ctx)), SIGKILL);
    QProcess bystander; // what a pid from another sandbox may name here
    bystander.start("sleep", {"60"});
    QVERIFY(bystander.waitForStarted());
    QFile pidFile(m_host->root() + "/" + ctx + "/kernel.pid");
    QVERIFY(pidFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
    pidFile.write(QByteArray::number(bystander.processId()));
    pidFile.close();

    const RunnerOutcome run = m_host->runCode(ctx, "z");
    QCOMPARE(run.first("error").value("name").toString(), QString("NameError"));
    QVERIFY(run.first("notice").value("message").toString().contains(
        "kernel.pid names another process"));
    QCOMPARE(bystander.state(), QProcess::Running); // neither used nor killed
    QVERIFY(RunnerHost::kernelPid(m_host->root(), ctx) != bystander.processId());
    bystander.kill();
    bystander.waitForFinished();
}

void TestRunnerVariables::saveAllInServeMode()
{
    const QString ctx = m_host->createContext();
    QVERIFY(!ctx.isEmpty());
    ServeSession serve(*m_host);
    QVERIFY2(serve.start(), qPrintable(serve.error()));
    QVERIFY(serve.request({{"action", "run"}, {"context", ctx}, {"code", "w = 5"}})
                .first("error")
                .isEmpty());
    const RunnerOutcome saved = serve.request({{"action", "save_all"}});
    QCOMPARE(names(saved.first("ok")
                       .value("contexts")
                       .toArray()
                       .first()
                       .toObject()
                       .value("saved")
                       .toArray()),
             QStringList{"w"});
    // The serving kernel client is still warm and the kernel unchanged.
    QCOMPARE(serve.request({{"action", "run"}, {"context", ctx}, {"code", "w"}})
                 .first("result")
                 .value("data")
                 .toString(),
             QString("5"));
}

QTEST_GUILESS_MAIN(TestRunnerVariables)
#include "tst_runnervariables.moc"
