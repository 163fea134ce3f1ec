// The code runner's contexts and requests: other languages, listing, errors, interrupting, and
// compatibility with contexts laid out by the official SDK's runner (one-shot mode, this host).
#include "runner/runnerhost.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <unistd.h>

namespace {

bool processRuns(qint64 pid)
{
    QFile stat(QString("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(") ");
    return close > 0 && text.mid(close + 2, 1) != "Z";
}

} // namespace

using lizard::test::EventDecoder;
using lizard::test::RunnerHost;
using lizard::test::RunnerOutcome;

class TestRunnerContexts : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void sourceFitsInOneArgument();
    void processLanguages_data();
    void processLanguages();
    void processCountsRuns();
    void pythonWithoutJupyterRunsAsAProcess();
    void createListDelete();
    void badRequests_data();
    void badRequests();
    void interruptAction_data();
    void interruptAction();
    void sdkLaidOutContextIsUsed();
    void ourContextHasTheSdkLayout();

private:
    bool needKernel();
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<RunnerHost> m_host;
};

bool TestRunnerContexts::needKernel()
{
    return !RunnerHost::python().isEmpty();
}

void TestRunnerContexts::init()
{
    if (RunnerHost::plainPython().isEmpty())
        QSKIP("no python3");
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_host = std::make_unique<RunnerHost>(m_dir->path() + "/code");
}

void TestRunnerContexts::cleanup()
{
    if (m_host)
        m_host->killKernels();
    m_host.reset();
    m_dir.reset();
}

void TestRunnerContexts::sourceFitsInOneArgument()
{
    // It travels as one argv string (`python3 -c <source>`); Linux caps one at 128 KiB.
    const QFileInfo info(RunnerHost::script());
    QVERIFY(info.exists());
    QVERIFY2(info.size() < 100 * 1024, qPrintable(QString::number(info.size())));
}

void TestRunnerContexts::processLanguages_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QJsonObject>("extra");
    QTest::addColumn<QString>("stdoutText"); // "<cwd>" stands for the context's directory
    QTest::addColumn<QString>("errorName");
    QTest::addColumn<QString>("errorText");

    QTest::newRow("js prints") << "javascript"
                               << "console.log(1 + 1)" << QJsonObject{} << "2\n"
                               << ""
                               << "";
    QTest::newRow("js throws") << "js"
                               << "throw new Error('boom')" << QJsonObject{} << ""
                               << "ExitError"
                               << "boom";
    QTest::newRow("bash env and cwd")
        << "bash"
        << "echo \"$LZ_X\"; pwd" << QJsonObject{{"envs", QJsonObject{{"LZ_X", "y z"}}}}
        << "y z\n<cwd>\n"
        << ""
        << "";
    QTest::newRow("bash exit code") << "sh"
                                    << "echo out; echo err >&2; exit 3" << QJsonObject{} << "out\n"
                                    << "ExitError"
                                    << "err";
    QTest::newRow("bash timeout") << "bash"
                                  << "echo start; sleep 30" << QJsonObject{{"timeout", 1}}
                                  << "start\n"
                                  << "TimeoutError"
                                  << "";
    QTest::newRow("bash unicode") << "bash"
                                  << "printf 'caf\\xc3\\xa9 \\xe2\\x9c\\x93\\n'" << QJsonObject{}
                                  << QString::fromUtf8("café ✓\n") << ""
                                  << "";
}

void TestRunnerContexts::processLanguages()
{
    QFETCH(QString, language);
    QFETCH(QString, code);
    QFETCH(QJsonObject, extra);
    QFETCH(QString, stdoutText);
    QFETCH(QString, errorName);
    QFETCH(QString, errorText);
    if (language.startsWith("j") && QStandardPaths::findExecutable("node").isEmpty())
        QSKIP("node is not installed");

    extra["language"] = language;
    const RunnerOutcome run = m_host->runCode({}, code, extra);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.text("stdout"), QString(stdoutText).replace("<cwd>", m_host->cwd()));
    const QJsonObject error = run.first("error");
    QCOMPARE(error.value("name").toString(), errorName);
    QVERIFY2(error.value("traceback").toString().contains(errorText), qPrintable(run.describe()));
    QCOMPARE(run.first("done").value("execution_count").toInt(), 1);
    QVERIFY(run.elapsedMs < 20000);
}

void TestRunnerContexts::processCountsRuns()
{
    const QString ctx = m_host->createContext("bash");
    QVERIFY(!ctx.isEmpty());
    for (int i = 1; i <= 3; ++i) {
        const RunnerOutcome run = m_host->runCode(ctx, "x=1; echo $x");
        QCOMPARE(run.first("done").value("execution_count").toInt(), i);
    }
    // A fresh process per run: nothing survives.
    QCOMPARE(m_host->runCode(ctx, "echo \"[$x]\"").text("stdout"), QString("[]\n"));
}

void TestRunnerContexts::pythonWithoutJupyterRunsAsAProcess()
{
    // A `base` sandbox has python3 but no Jupyter stack: as with the SDK, each Python run is then
    // a fresh process. Hide jupyter_client from the runner's python to get that situation here.
    const QString hidden = m_dir->path() + "/hide/jupyter_client";
    QVERIFY(QDir().mkpath(hidden));
    QFile init(hidden + "/__init__.py");
    QVERIFY(init.open(QIODevice::WriteOnly));
    init.write("raise ImportError('hidden by the test')\n");
    init.close();
    m_host->setEnv("PYTHONPATH", m_dir->path() + "/hide");

    RunnerOutcome run = m_host->runCode({}, "x = 6\nprint(x * 7)");
    QCOMPARE(run.text("stdout"), QString("42\n"));
    QCOMPARE(run.first("done").value("execution_count").toInt(), 1);
    QVERIFY(!QFile::exists(m_host->root() + "/default-python/kernel.pid"));
    run = m_host->runCode({}, "print(x)");
    QCOMPARE(run.first("error").value("name").toString(), QString("ExitError"));
    QVERIFY(run.first("error").value("traceback").toString().contains("NameError"));
    QCOMPARE(run.first("done").value("execution_count").toInt(), 2);
}

void TestRunnerContexts::createListDelete()
{
    const QString py = needKernel() ? m_host->createContext("python") : QString();
    const QString sh = m_host->createContext("bash");
    QVERIFY(!sh.isEmpty());
    QVERIFY(QRegularExpression("^ctx-[0-9a-f]{16}$").match(sh).hasMatch());
    QCOMPARE(m_host->runCode({}, "echo default", {{"language", "bash"}}).text("stdout"),
             QString("default\n"));

    RunnerOutcome list = m_host->run({{"action", "list"}});
    QStringList ids;
    for (const QJsonValue& v : list.first("contexts").value("data").toArray()) {
        ids << v.toObject().value("id").toString();
        QCOMPARE(v.toObject().value("cwd").toString(), m_host->cwd());
    }
    QStringList expected{sh};
    if (!py.isEmpty())
        expected << py;
    expected.sort();
    QCOMPARE(ids, expected); // sorted, default-* left out

    const qint64 kernel = py.isEmpty() ? 0 : RunnerHost::kernelPid(m_host->root(), py);
    for (const QString& id : expected)
        QVERIFY(!m_host->run({{"action", "delete"}, {"context", id}}).first("ok").isEmpty());
    list = m_host->run({{"action", "list"}});
    QCOMPARE(list.first("contexts").value("data").toArray().size(), 0);
    QVERIFY(!QFileInfo::exists(m_host->root() + "/" + sh));
    if (kernel > 0)
        QTRY_VERIFY(!processRuns(kernel)); // the kernel was stopped
}

void TestRunnerContexts::badRequests_data()
{
    QTest::addColumn<QByteArray>("argument"); // what follows the script on the command line
    QTest::addColumn<QString>("messageHas");

    const auto b64 = [](const QJsonObject& o) { return RunnerHost::encodeArgs(o); };
    QTest::newRow("not base64") << QByteArray("%%%") << "base64";
    QTest::newRow("not an object") << QByteArray("WzFd") << "object";
    QTest::newRow("unknown action") << b64({{"action", "explode"}}) << "unknown action";
    QTest::newRow("no such context")
        << b64({{"action", "run"}, {"context", "ctx-0123456789abcdef"}, {"code", "1"}})
        << "not found";
    QTest::newRow("path in id") << b64({{"action", "create"}, {"id", "../escape"}})
                                << "invalid context id";
    QTest::newRow("hidden id") << b64({{"action", "delete"}, {"context", ".requests"}})
                               << "invalid context id";
    QTest::newRow("language") << b64({{"action", "run"}, {"language", "cobol"}, {"code", "1"}})
                              << "unsupported language";
    QTest::newRow("envs") << b64({{"action", "run"},
                                  {"language", "bash"},
                                  {"code", "1"},
                                  {"envs", QJsonObject{{"A", 1}}}})
                          << "envs";
    QTest::newRow("timeout")
        << b64({{"action", "run"}, {"language", "bash"}, {"code", "1"}, {"timeout", -1}})
        << "timeout";
    QTest::newRow("codeFile outside")
        << b64({{"action", "run"}, {"language", "bash"}, {"codeFile", "/etc/passwd"}})
        << "codeFile";
    QTest::newRow("relative cwd")
        << b64({{"action", "create"}, {"language", "bash"}, {"cwd", "rel"}}) << "absolute";
}

void TestRunnerContexts::badRequests()
{
    QFETCH(QByteArray, argument);
    QFETCH(QString, messageHas);
    const RunnerOutcome run = m_host->runRaw({RunnerHost::script(), QString::fromLatin1(argument)});
    QCOMPARE(run.exitCode, 3);
    QCOMPARE(run.events.size(), 1);
    QVERIFY2(run.first("fatal").value("message").toString().contains(messageHas),
             qPrintable(run.describe()));
    QVERIFY(!QFileInfo::exists(m_dir->path() + "/escape"));
    QVERIFY(QFileInfo::exists("/etc/passwd"));
}

void TestRunnerContexts::interruptAction_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("errorName");

    QTest::newRow("python") << "python"
                            << "import time\nn = 1\nprint('go', flush=True)\ntime.sleep(60)"
                            << "KeyboardInterrupt";
    QTest::newRow("bash") << "bash"
                          << "echo go; sleep 60"
                          << "Interrupted";
}

void TestRunnerContexts::interruptAction()
{
    QFETCH(QString, language);
    QFETCH(QString, code);
    QFETCH(QString, errorName);
    if (language == "python" && !needKernel())
        QSKIP("no Jupyter stack");

    const QString ctx = m_host->createContext(language);
    QVERIFY(!ctx.isEmpty());
    QProcess running;
    running.setProcessEnvironment(m_host->environment());
    const QJsonObject args{{"action", "run"}, {"context", ctx}, {"code", code}};
    running.start(RunnerHost::plainPython(),
                  {RunnerHost::script(), QString::fromLatin1(RunnerHost::encodeArgs(args))});
    QByteArray out;
    QElapsedTimer clock;
    clock.start();
    while (!out.contains("go") && clock.elapsed() < 30000 && running.waitForReadyRead(30000))
        out += running.readAllStandardOutput();
    QVERIFY2(out.contains("go"), out.constData());

    const RunnerOutcome interrupt = m_host->run({{"action", "interrupt"}, {"context", ctx}});
    QCOMPARE(interrupt.first("ok").value("interrupted").toBool(), true);
    QVERIFY(running.waitForFinished(20000));
    out += running.readAllStandardOutput();
    QVERIFY2(clock.elapsed() < 30000, "the run was not interrupted");
    EventDecoder decoder;
    QString name;
    for (const QByteArray& line : out.split('\n')) {
        if (auto event = decoder.feed(line); event && event->value("type").toString() == "error")
            name = event->value("name").toString();
    }
    QCOMPARE(name, errorName);
    if (language == "python") // the kernel survived with its state
        QCOMPARE(m_host->runCode(ctx, "n").first("result").value("data").toString(), QString("1"));
}

void TestRunnerContexts::sdkLaidOutContextIsUsed()
{
    if (!needKernel())
        QSKIP("no Jupyter stack");
    // Lay out a context exactly as the official SDK's runner does (documented in
    // resources/runner/PROTOCOL.md): meta.json, then `python3 -m ipykernel_launcher -f kernel.json`
    // in its own session with cwd from meta, its pid in kernel.pid. Then use it with our runner.
    const QString id = "ctx-5d4c3b2a19081726";
    const QString dir = m_host->root() + "/" + id;
    QVERIFY(QDir().mkpath(dir));
    QFile meta(dir + "/meta.json");
    QVERIFY(meta.open(QIODevice::WriteOnly));
    meta.write(QString(R"({"id": "%1", "language": "python", "cwd": "%2"})")
                   .arg(id, m_host->cwd())
                   .toUtf8());
    meta.close();
    QProcess launcher;
    launcher.setProgram("setsid");
    launcher.setArguments(
        {RunnerHost::python(), "-m", "ipykernel_launcher", "-f", dir + "/kernel.json"});
    launcher.setWorkingDirectory(m_host->cwd());
    launcher.setStandardOutputFile(dir + "/kernel.log", QIODevice::Append);
    launcher.setStandardErrorFile(dir + "/kernel.log", QIODevice::Append);
    qint64 pid = 0;
    QVERIFY(launcher.startDetached(&pid));
    QFile pidFile(dir + "/kernel.pid");
    QVERIFY(pidFile.open(QIODevice::WriteOnly));
    pidFile.write(QByteArray::number(pid));
    pidFile.close();
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(dir + "/kernel.json").size() > 0, 30000);

    const RunnerOutcome list = m_host->run({{"action", "list"}});
    QCOMPARE(
        list.first("contexts").value("data").toArray().first().toObject().value("id").toString(),
        id);
    QVERIFY(m_host->runCode(id, "shared = 21").first("error").isEmpty());
    const RunnerOutcome run =
        m_host->runCode(id, "import os\nprint(os.getpid(), os.getcwd())\nshared * 2");
    QVERIFY2(run.ofType("notice").isEmpty(),
             qPrintable(run.describe())); // the SDK's kernel was reused
    QCOMPARE(run.text("stdout"), QString("%1 %2\n").arg(pid).arg(m_host->cwd()));
    QCOMPARE(run.first("result").value("data").toString(), QString("42"));
    QVERIFY(!m_host->run({{"action", "delete"}, {"context", id}}).first("ok").isEmpty());
}

void TestRunnerContexts::ourContextHasTheSdkLayout()
{
    if (!needKernel())
        QSKIP("no Jupyter stack");
    // What the SDK's runner relies on in a context our runner made.
    const QString id = m_host->createContext();
    const QString dir = m_host->root() + "/" + id;
    QFile meta(dir + "/meta.json");
    QVERIFY(meta.open(QIODevice::ReadOnly));
    const QJsonObject m = QJsonDocument::fromJson(meta.readAll()).object();
    QCOMPARE(m.keys(), (QStringList{"cwd", "id", "language"}));
    QCOMPARE(m.value("id").toString(), id);

    const qint64 pid = RunnerHost::kernelPid(m_host->root(), id);
    QVERIFY(pid > 0);
    QCOMPARE(static_cast<qint64>(getsid(static_cast<pid_t>(pid))),
             pid); // its own session: killpg(pid) works
    QFile cmdline(QString("/proc/%1/cmdline").arg(pid));
    QVERIFY(cmdline.open(QIODevice::ReadOnly));
    const QList<QByteArray> argv = cmdline.readAll().split('\0');
    QVERIFY(argv.size() >= 5);
    QCOMPARE(argv.mid(1, 4), (QList<QByteArray>{"-m", "ipykernel_launcher", "-f",
                                                (dir + "/kernel.json").toUtf8()}));
    QCOMPARE(QFileInfo(QString("/proc/%1/cwd").arg(pid)).symLinkTarget(), m_host->cwd());
    QFile conn(dir + "/kernel.json");
    QVERIFY(conn.open(QIODevice::ReadOnly));
    const QJsonObject c = QJsonDocument::fromJson(conn.readAll()).object();
    for (const char* key :
         {"shell_port", "iopub_port", "control_port", "hb_port", "key", "ip", "transport"})
        QVERIFY2(c.contains(key), key);
}

QTEST_GUILESS_MAIN(TestRunnerContexts)
#include "tst_runnercontexts.moc"
