// The runner's list_variables request (the notebook's variable explorer), on this host: only the
// user's own variables, with type, shape, size and a bounded preview; 200 variables at once; a
// repr that raises or never ends costs only its own preview; huge objects are previewed cheaply;
// the listing is silent (the execution count does not move) and never starts a kernel.
#include "runner/runnerhost.h"

#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using lizard::test::RunnerHost;
using lizard::test::RunnerOutcome;

class TestRunnerListing : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void listsOnlyTheUsersVariables();
    void listingDoesNotMoveTheExecutionCount();
    void twoHundredVariables();
    void badAndSlowReprsCostOnlyTheirPreview();
    void hugeObjectsArePreviewedCheaply();
    void oneVariableWithItsFullRepr();
    void noKernelNoListing();

private:
    QHash<QString, QJsonObject> listing(const QString& context, const QString& name = {});

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<RunnerHost> m_host;
    QString m_ctx;
    bool m_numpy = false;
};

void TestRunnerListing::initTestCase()
{
    if (RunnerHost::python().isEmpty())
        QSKIP(
            "no python3 with jupyter_client and ipykernel (scripts/install-deps.sh installs them)");
    QProcess numpy;
    numpy.start(RunnerHost::python(), {"-c", "import numpy"});
    m_numpy = numpy.waitForFinished(30000) && numpy.exitCode() == 0;
}

void TestRunnerListing::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_host = std::make_unique<RunnerHost>(m_dir->path() + "/code");
    m_ctx = m_host->createContext();
    QVERIFY(!m_ctx.isEmpty());
}

void TestRunnerListing::cleanup()
{
    m_host->killKernels();
    m_host.reset();
    m_dir.reset();
}

QHash<QString, QJsonObject> TestRunnerListing::listing(const QString& context, const QString& name)
{
    QJsonObject req{{"action", "list_variables"}, {"context", context}};
    if (!name.isEmpty())
        req.insert("name", name);
    const RunnerOutcome out = m_host->run(req);
    QHash<QString, QJsonObject> rows;
    if (out.exitCode != 0 || !out.first("ok").value("kernel").toBool()) {
        qWarning().noquote() << out.describe();
        return rows;
    }
    const QJsonObject ok = out.first("ok");
    const QJsonArray columns = ok.value("columns").toArray();
    for (const QJsonValue& v : ok.value("variables").toArray()) {
        QJsonObject row;
        for (qsizetype i = 0; i < columns.size(); ++i)
            row.insert(columns.at(i).toString(), v.toArray().at(i));
        if (ok.contains("repr"))
            row.insert("repr", ok.value("repr"));
        rows.insert(row.value("name").toString(), row);
    }
    return rows;
}

void TestRunnerListing::listsOnlyTheUsersVariables()
{
    const RunnerOutcome run = m_host->runCode(m_ctx, "import os\n"
                                                     "from math import sqrt\n"
                                                     "from collections import OrderedDict\n"
                                                     "x = 41\n"
                                                     "s = 'hello'\n"
                                                     "items = [1, 2, 3]\n"
                                                     "_hidden = 1\n"
                                                     "def f(a):\n    return a\n"
                                                     "class Point:\n    pass\n"
                                                     "x");
    QCOMPARE(run.exitCode, 0);
    const QHash<QString, QJsonObject> rows = listing(m_ctx);
    QStringList names = rows.keys();
    names.sort();
    // Modules, imported functions and classes, underscore names and IPython's own (In, Out,
    // exit, quit, get_ipython, _) are left out; the user's own functions and classes are listed.
    QCOMPARE(names, (QStringList{"Point", "f", "items", "s", "x"}));
    QCOMPARE(rows["x"].value("type").toString(), QString("int"));
    QCOMPARE(rows["x"].value("preview").toString(), QString("41"));
    QCOMPARE(rows["x"].value("size").toInt(), 28); // sys.getsizeof(41) on CPython 3
    QCOMPARE(rows["s"].value("shape").toString(), QString("len 5"));
    QCOMPARE(rows["s"].value("preview").toString(), QString("'hello'"));
    QCOMPARE(rows["items"].value("preview").toString(), QString("[1, 2, 3]"));
    QCOMPARE(rows["f"].value("type").toString(), QString("function"));

    if (m_numpy) {
        QCOMPARE(m_host->runCode(m_ctx, "import numpy as np\na = np.zeros((3, 4))").exitCode, 0);
        const QJsonObject a = listing(m_ctx).value("a");
        QCOMPARE(a.value("type").toString(), QString("numpy.ndarray"));
        QCOMPARE(a.value("shape").toString(), QString("3 × 4"));
        QCOMPARE(a.value("size").toInt(), 96); // nbytes: 12 float64
    }
    // Nothing of the listing is left in the user's namespace.
    const RunnerOutcome clean =
        m_host->runCode(m_ctx, "sorted(k for k in globals() if k.startswith('_lz'))");
    QCOMPARE(clean.first("result").value("data").toString(), QString("[]"));
}

void TestRunnerListing::listingDoesNotMoveTheExecutionCount()
{
    QCOMPARE(m_host->runCode(m_ctx, "x = 1").first("done").value("execution_count").toInt(), 1);
    QVERIFY(listing(m_ctx).contains("x"));
    QVERIFY(listing(m_ctx).contains("x"));
    const RunnerOutcome next = m_host->runCode(m_ctx, "x + 1");
    QCOMPARE(next.first("done").value("execution_count").toInt(), 2);
    QCOMPARE(next.first("result").value("data").toString(), QString("2"));
    // Nor the history: _ is still the last result the user saw.
    QCOMPARE(m_host->runCode(m_ctx, "_").first("result").value("data").toString(), QString("2"));
}

void TestRunnerListing::twoHundredVariables()
{
    QCOMPARE(
        m_host->runCode(m_ctx, "for i in range(200):\n    globals()['v%03d' % i] = list(range(i))")
            .exitCode,
        0);
    const QHash<QString, QJsonObject> rows = listing(m_ctx);
    QCOMPARE(rows.size(), 201); // and i
    QCOMPARE(rows["v199"].value("shape").toString(), QString("len 199"));
    QCOMPARE(rows["v003"].value("preview").toString(), QString("[0, 1, 2]"));
}

void TestRunnerListing::badAndSlowReprsCostOnlyTheirPreview()
{
    QCOMPARE(m_host
                 ->runCode(
                     m_ctx,
                     "class Bad:\n    def __repr__(self):\n        raise ValueError('nope')\n"
                     "class Slow:\n    def __repr__(self):\n        while True:\n            pass\n"
                     "bad, slow, fine = Bad(), Slow(), 3")
                 .exitCode,
             0);
    QElapsedTimer t;
    t.start();
    const QHash<QString, QJsonObject> rows = listing(m_ctx);
    QVERIFY2(t.elapsed() < 20000, qPrintable(QString::number(t.elapsed())));
    QCOMPARE(rows["bad"].value("preview").toString(), QString("(repr failed: ValueError: nope)"));
    QCOMPARE(rows["bad"].value("type").toString(), QString("Bad"));
    QCOMPARE(rows["slow"].value("preview").toString(), QString("(repr took too long)"));
    QCOMPARE(rows["fine"].value("preview").toString(), QString("3"));
    // The kernel is fine afterwards, and the user's own SIGALRM handler (none here) is back.
    const RunnerOutcome after = m_host->runCode(
        m_ctx, "import signal\nsignal.getsignal(signal.SIGALRM) is signal.SIG_DFL, fine");
    QCOMPARE(after.first("result").value("data").toString(), QString("(True, 3)"));
}

void TestRunnerListing::hugeObjectsArePreviewedCheaply()
{
    QCOMPARE(m_host
                 ->runCode(m_ctx, "big = list(range(10**7))\n"
                                  "table = {i: str(i) for i in range(10**6)}\n"
                                  "text = 'x' * 10**8\n")
                 .exitCode,
             0);
    QElapsedTimer t;
    t.start();
    const QHash<QString, QJsonObject> rows = listing(m_ctx);
    QVERIFY2(t.elapsed() < 20000, qPrintable(QString::number(t.elapsed())));
    QCOMPARE(rows["big"].value("shape").toString(), QString("len 10000000"));
    QCOMPARE(rows["big"].value("preview").toString(), QString("[0, 1, 2, 3, 4, 5, 6, 7, …]"));
    QVERIFY(rows["big"].value("size").toDouble() > 8e7);
    QCOMPARE(rows["table"].value("preview").toString(),
             QString("{0: '0', 1: '1', 2: '2', 3: '3', 4: '4', 5: '5', 6: '6', 7: '7', …}"));
    QCOMPARE(rows["text"].value("shape").toString(), QString("len 100000000"));
    QVERIFY(rows["text"].value("preview").toString().size() <= 80);
    QVERIFY(rows["text"].value("preview").toString().startsWith("'xxxx"));
}

void TestRunnerListing::oneVariableWithItsFullRepr()
{
    QCOMPARE(m_host->runCode(m_ctx, "long = list(range(100))\nbig = 'y' * 300000").exitCode, 0);
    const QJsonObject one = listing(m_ctx, "long").value("long");
    QCOMPARE(
        one.value("repr").toString(), QString("[") + [] {
            QStringList n;
            for (int i = 0; i < 100; ++i)
                n << QString::number(i);
            return n.join(", ");
        }() + "]");
    const QString capped = listing(m_ctx, "big").value("big").value("repr").toString();
    QVERIFY(capped.size() < 201000);
    QVERIFY2(capped.endsWith("more characters)"), qPrintable(capped.right(60)));
    QVERIFY(listing(m_ctx, "nothere").isEmpty() || !listing(m_ctx, "nothere").contains("nothere"));
    const RunnerOutcome bad =
        m_host->run({{"action", "list_variables"}, {"context", m_ctx}, {"name", "a b"}});
    QCOMPARE(bad.exitCode, 3);
    QVERIFY(bad.first("fatal").value("message").toString().contains("identifier"));
}

void TestRunnerListing::noKernelNoListing()
{
    // The default context before its first run: no kernel, and asking does not start one.
    const RunnerOutcome out = m_host->run({{"action", "list_variables"}, {"language", "python"}});
    QCOMPARE(out.exitCode, 0);
    QCOMPARE(out.first("ok").value("kernel").toBool(), false);
    QCOMPARE(out.first("ok").value("variables").toArray().size(), 0);
    QVERIFY(!QFile::exists(m_host->root() + "/default-python/kernel.pid"));
}

QTEST_GUILESS_MAIN(TestRunnerListing)
#include "tst_runnerlisting.moc"
