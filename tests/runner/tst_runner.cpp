// The code runner's Python contexts (persistent Jupyter kernels), one-shot mode, on this host.
#include "runner/runnerhost.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using lizard::test::RunnerHost;
using lizard::test::RunnerOutcome;

class TestRunner : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void statePersistsBetweenRuns();
    void newContextDoesNotSeeOldVariables();
    void defaultContextIsCreatedOnFirstRun();
    void timeoutInterruptsAndKeepsState();
    void richResults_data();
    void richResults();
    void displayUpdatesAndClears();
    void perRunEnvsAreRestored();
    void kernelDeath_data();
    void kernelDeath();
    void errorKeepsAnsiTraceback();
    void longOutputIsSplitIntoParts();
    void dashCFormBehavesTheSame();
    void restartClearsState();
    void saveAndLoadVariables();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<RunnerHost> m_host;
};

void TestRunner::initTestCase()
{
    if (RunnerHost::python().isEmpty())
        QSKIP(
            "no python3 with jupyter_client and ipykernel (scripts/install-deps.sh installs them)");
}

void TestRunner::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_host = std::make_unique<RunnerHost>(m_dir->path() + "/code");
}

void TestRunner::cleanup()
{
    m_host->killKernels();
    m_host.reset();
    m_dir.reset();
}

void TestRunner::statePersistsBetweenRuns()
{
    const QString ctx = m_host->createContext();
    QVERIFY(ctx.startsWith("ctx-"));
    RunnerOutcome first = m_host->runCode(ctx, "x = 41\nprint('set')");
    QCOMPARE(first.exitCode, 0);
    QCOMPARE(first.text("stdout"), QString("set\n"));
    QCOMPARE(first.first("done").value("execution_count").toInt(), 1);

    RunnerOutcome second = m_host->runCode(ctx, "x + 1");
    QVERIFY2(second.first("error").isEmpty(), qPrintable(second.describe()));
    const QJsonObject result = second.first("result");
    QCOMPARE(result.value("mime").toString(), QString("text/plain"));
    QCOMPARE(result.value("data").toString(), QString("42"));
    QCOMPARE(result.value("display").toBool(), false);
    QCOMPARE(result.value("execution_count").toInt(), 2);
    QCOMPARE(second.first("done").value("execution_count").toInt(), 2);
    QVERIFY(second.ofType("notice").isEmpty()); // same kernel, nothing to announce
}

void TestRunner::newContextDoesNotSeeOldVariables()
{
    const QString a = m_host->createContext();
    QCOMPARE(m_host->runCode(a, "secret = 1").exitCode, 0);
    const QString b = m_host->createContext();
    QVERIFY(a != b);
    const RunnerOutcome run = m_host->runCode(b, "secret");
    QCOMPARE(run.first("error").value("name").toString(), QString("NameError"));
    QVERIFY(run.first("error").value("message").toString().contains("secret"));
    QCOMPARE(run.exitCode, 0); // a code error is an event, not a runner failure
}

void TestRunner::defaultContextIsCreatedOnFirstRun()
{
    RunnerOutcome run = m_host->runCode({}, "import os\nprint(os.getcwd())\nv = 7");
    QCOMPARE(run.text("stdout").trimmed(), m_host->cwd());
    run = m_host->runCode({}, "v * 6");
    QCOMPARE(run.first("result").value("data").toString(), QString("42"));
    QVERIFY(QFile::exists(m_host->root() + "/default-python/meta.json"));
    // The default context is not listed (as with the SDK).
    const RunnerOutcome list = m_host->run({{"action", "list"}});
    QCOMPARE(list.first("contexts").value("data").toArray().size(), 0);
}

void TestRunner::timeoutInterruptsAndKeepsState()
{
    const QString ctx = m_host->createContext();
    QCOMPARE(m_host->runCode(ctx, "kept = 'yes'").exitCode, 0);
    const RunnerOutcome slow = m_host->runCode(
        ctx, "import time\nprint('before', flush=True)\ntime.sleep(60)", {{"timeout", 1.5}});
    QCOMPARE(slow.exitCode, 0);
    QCOMPARE(slow.first("error").value("name").toString(), QString("TimeoutError"));
    QVERIFY(slow.first("error").value("message").toString().contains("keeps its state"));
    QCOMPARE(slow.ofType("error").size(), 1); // the KeyboardInterrupt is not reported on top
    QCOMPARE(slow.text("stdout"), QString("before\n"));
    QVERIFY2(slow.elapsedMs < 20000, qPrintable(slow.describe()));

    const RunnerOutcome after = m_host->runCode(ctx, "kept");
    QCOMPARE(after.first("result").value("data").toString(), QString("'yes'"));
    QVERIFY(after.ofType("notice").isEmpty());
}

void TestRunner::richResults_data()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("mime");
    QTest::addColumn<QStringList>("bundleHas");
    QTest::addColumn<bool>("display");

    QTest::newRow("matplotlib png")
        << "import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()"
        << "image/png" << QStringList{"image/png", "text/plain"} << true;
    QTest::newRow("pandas html")
        << "import pandas as pd\npd.DataFrame({'a': [1, 2], 'b': ['x', 'y']})"
        << "text/html" << QStringList{"text/html", "text/plain"} << false;
    QTest::newRow("markdown display")
        << "from IPython.display import Markdown, display\ndisplay(Markdown('**hi**'))"
        << "text/markdown" << QStringList{"text/markdown", "text/plain"} << true;
    QTest::newRow("json") << "from IPython.display import JSON\nJSON({'k': [1, 2]})"
                          << "application/json" << QStringList{"application/json", "text/plain"}
                          << false;
}

void TestRunner::richResults()
{
    QFETCH(QString, code);
    QFETCH(QString, mime);
    QFETCH(QStringList, bundleHas);
    QFETCH(bool, display);

    const RunnerOutcome run = m_host->runCode({}, code);
    QVERIFY2(run.first("error").isEmpty(), qPrintable(run.describe()));
    const QList<QJsonObject> results = run.ofType("result");
    QCOMPARE(results.size(), 1);
    const QJsonObject result = results.first();
    QCOMPARE(result.value("mime").toString(), mime);
    QCOMPARE(result.value("display").toBool(), display);
    const QJsonObject bundle = result.value("bundle").toObject();
    for (const QString& key : bundleHas)
        QVERIFY2(bundle.value(key).isString(), qPrintable(key));
    QCOMPARE(bundle.value(mime).toString(), result.value("data").toString());
    if (mime == "image/png") {
        const QByteArray png = QByteArray::fromBase64(result.value("data").toString().toLatin1());
        QVERIFY(png.startsWith("\x89PNG\r\n\x1a\n"));
        QVERIFY(png.size() > 1000);
    }
    if (mime == "text/html")
        QVERIFY(result.value("data").toString().contains("<table"));
    if (!display)
        QCOMPARE(result.value("execution_count").toInt(),
                 run.first("done").value("execution_count").toInt());
}

void TestRunner::displayUpdatesAndClears()
{
    const RunnerOutcome run = m_host->runCode(
        {}, "from IPython.display import display, clear_output\n"
            "h = display('first', "
            "display_id=True)\nh.update('second')\nprint('x')\nclear_output(wait=True)");
    QVERIFY2(run.first("error").isEmpty(), qPrintable(run.describe()));
    const QJsonObject shown = run.first("result");
    const QJsonObject update = run.first("update_display");
    QCOMPARE(shown.value("data").toString(), QString("'first'"));
    QCOMPARE(update.value("data").toString(), QString("'second'"));
    QVERIFY(!shown.value("display_id").toString().isEmpty());
    QCOMPARE(update.value("display_id").toString(), shown.value("display_id").toString());
    QCOMPARE(run.first("clear_output").value("wait").toBool(), true);
}

void TestRunner::perRunEnvsAreRestored()
{
    const QString ctx = m_host->createContext();
    const QString probe =
        "import os\nprint(os.environ.get('LZ_TEST_VAR'), os.environ.get('HOME') is not None)";
    RunnerOutcome with =
        m_host->runCode(ctx, probe, {{"envs", QJsonObject{{"LZ_TEST_VAR", "on"}}}});
    QCOMPARE(with.text("stdout"), QString("on True\n"));
    RunnerOutcome without = m_host->runCode(ctx, probe);
    QCOMPARE(without.text("stdout"), QString("None True\n"));
    // Variables of the user are not clobbered by the runner's helpers.
    without = m_host->runCode(ctx, "print(sorted(k for k in globals() if k.startswith('_lz')))");
    QCOMPARE(without.text("stdout"), QString("[]\n"));
}

void TestRunner::kernelDeath_data()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("how");

    QTest::newRow("os._exit") << "import os\nos._exit(3)"
                              << "exit code 3";
    QTest::newRow("SIGKILL (as the OOM killer does)")
        << "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"
        << "SIGKILL";
    QTest::newRow("abort") << "import os\nos.abort()"
                           << "SIGABRT";
}

void TestRunner::kernelDeath()
{
    QFETCH(QString, code);
    QFETCH(QString, how);

    const QString ctx = m_host->createContext();
    QCOMPARE(m_host->runCode(ctx, "lost = 1").exitCode, 0);
    const RunnerOutcome dying = m_host->runCode(ctx, code);
    QCOMPARE(dying.exitCode, 0);
    const QJsonObject error = dying.first("error");
    QCOMPARE(error.value("name").toString(), QString("KernelDied"));
    QVERIFY2(error.value("message").toString().contains("the kernel died"),
             qPrintable(dying.describe()));
    QVERIFY2(error.value("message").toString().contains(how), qPrintable(dying.describe()));
    QVERIFY(!dying.first("done").isEmpty());

    const RunnerOutcome next = m_host->runCode(ctx, "lost");
    const QJsonObject notice = next.first("notice");
    QVERIFY2(notice.value("message").toString().contains("started a fresh kernel"),
             qPrintable(next.describe()));
    QVERIFY(notice.value("message").toString().contains(how));
    QCOMPARE(next.first("error").value("name").toString(), QString("NameError"));
    QCOMPARE(next.first("done").value("execution_count").toInt(), 1);

    const RunnerOutcome calm = m_host->runCode(ctx, "1");
    QVERIFY(calm.ofType("notice").isEmpty()); // said once only
}

void TestRunner::errorKeepsAnsiTraceback()
{
    const RunnerOutcome run =
        m_host->runCode({}, "def f():\n    raise ValueError('bad value')\nf()");
    const QJsonObject error = run.first("error");
    QCOMPARE(error.value("name").toString(), QString("ValueError"));
    QCOMPARE(error.value("message").toString(), QString("bad value"));
    const QString plain = error.value("traceback").toString();
    const QString ansi = error.value("traceback_ansi").toString();
    QVERIFY(plain.contains("raise ValueError"));
    QVERIFY(!plain.contains(QChar(0x1b)));
    QVERIFY(ansi.contains(QChar(0x1b)));
    QVERIFY(ansi.size() > plain.size());
}

void TestRunner::longOutputIsSplitIntoParts()
{
    const RunnerOutcome run = m_host->runCode({}, "print('x' * 100000)\n'y' * 60000");
    QCOMPARE(run.text("stdout"), QString(100000, 'x') + "\n");
    QCOMPARE(run.first("result").value("data").toString(), "'" + QString(60000, 'y') + "'");
    QVERIFY(run.partLines >= 5); // no line longer than the SDK's 24000-char piece
}

void TestRunner::dashCFormBehavesTheSame()
{
    // The app sends the runner as `python3 -c <source> <b64>`, like the SDK.
    const QJsonObject args{{"action", "run"}, {"code", "print(6 * 7)"}, {"cwd", m_host->cwd()}};
    const RunnerOutcome run = m_host->run(args, 90000, true);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.text("stdout"), QString("42\n"));
}

void TestRunner::restartClearsState()
{
    const QString ctx = m_host->createContext();
    QCOMPARE(m_host->runCode(ctx, "gone = 1").exitCode, 0);
    const qint64 before = RunnerHost::kernelPid(m_host->root(), ctx);
    const RunnerOutcome restart = m_host->run({{"action", "restart"}, {"context", ctx}});
    QVERIFY2(!restart.first("ok").isEmpty(), qPrintable(restart.describe()));
    QVERIFY(RunnerHost::kernelPid(m_host->root(), ctx) != before);
    const RunnerOutcome run = m_host->runCode(ctx, "gone");
    QCOMPARE(run.first("error").value("name").toString(), QString("NameError"));
    QVERIFY(run.ofType("notice").isEmpty()); // a restart asked for is no surprise
    QCOMPARE(run.first("done").value("execution_count").toInt(), 1);
}

void TestRunner::saveAndLoadVariables()
{
    const QString from = m_host->createContext();
    QVERIFY(m_host
                ->runCode(from, "import math\na = [1, 2]\nb = {'k': a}\nf = lambda x: x + 1\n"
                                "class C: pass\nc = C()\ngen = (i for i in range(3))")
                .first("error")
                .isEmpty());
    const QString file = m_host->root() + "/vars.dill";
    const RunnerOutcome saved =
        m_host->run({{"action", "save_variables"}, {"context", from}, {"path", file}});
    const QJsonObject ok = saved.first("ok");
    QVERIFY2(!ok.isEmpty(), qPrintable(saved.describe()));
    QCOMPARE(ok.value("saved").toVariant().toStringList(),
             (QStringList{"C", "a", "b", "c", "f", "math"}));
    QCOMPARE(ok.value("skipped").toArray().size(),
             1); // a generator cannot be pickled: said, not fatal
    QCOMPARE(ok.value("skipped").toArray().first().toObject().value("name").toString(),
             QString("gen"));

    const QString to = m_host->createContext();
    const RunnerOutcome loaded =
        m_host->run({{"action", "load_variables"}, {"context", to}, {"path", file}});
    QCOMPARE(loaded.first("ok").value("loaded").toArray().size(), 6);
    const RunnerOutcome use =
        m_host->runCode(to, "b['k'] is a, f(1), math.sqrt(4), type(c).__name__");
    QCOMPARE(use.first("result").value("data").toString(), QString("(True, 2, 2.0, 'C')"));

    const RunnerOutcome missing =
        m_host->run({{"action", "load_variables"}, {"context", to}, {"path", file + ".no"}});
    QCOMPARE(missing.exitCode, 3);
    QVERIFY(missing.first("fatal").value("message").toString().contains("No such file"));
    const RunnerOutcome clean =
        m_host->runCode(to, "sorted(k for k in globals() if k.startswith('_lz'))");
    QCOMPARE(clean.first("result").value("data").toString(), QString("[]"));
}

QTEST_GUILESS_MAIN(TestRunner)
#include "tst_runner.moc"
