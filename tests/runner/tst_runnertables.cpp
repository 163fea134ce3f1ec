// DataFrames as data, the runner's side, on this host: `df` and display(df) carry the table MIME
// beside pandas' HTML and text; table_rows pages and sorts in the kernel without moving the
// execution count or making output; bad requests, unknown handles, a restarted or absent kernel
// give clear fatals; table_for_variable makes the same table (and handle) of a variable's frame.
#include "runner/runnerhost.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using lizard::test::RunnerHost;
using lizard::test::RunnerOutcome;

namespace {
const QString kMime = QStringLiteral("application/vnd.lizard.table+json");
}

class TestRunnerTables : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void frameAndSeriesCarryTheTable();
    void rowsPageAndSortInTheKernel();
    void badRequestsAreRefused_data();
    void badRequestsAreRefused();
    void restartedKernelRefusesOldHandles();
    void variableOpensAsTable();

private:
    QJsonObject table(const RunnerOutcome& run, int index = 0);
    RunnerOutcome rows(const QString& handle, int start, int count, const QJsonValue& column = {},
                       bool ascending = true);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<RunnerHost> m_host;
    QString m_ctx;
};

void TestRunnerTables::initTestCase()
{
    if (RunnerHost::python().isEmpty())
        QSKIP(
            "no python3 with jupyter_client and ipykernel (scripts/install-deps.sh installs them)");
    QProcess pandas;
    pandas.start(RunnerHost::python(), {"-c", "import pandas, numpy"});
    if (!pandas.waitForFinished(30000) || pandas.exitCode() != 0)
        QSKIP("no pandas and numpy for the kernel's python (python3-pandas, python3-numpy)");
}

void TestRunnerTables::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_host = std::make_unique<RunnerHost>(m_dir->path() + "/code");
    m_ctx = m_host->createContext();
    QVERIFY(!m_ctx.isEmpty());
}

void TestRunnerTables::cleanup()
{
    m_host->killKernels();
    m_host.reset();
    m_dir.reset();
}

QJsonObject TestRunnerTables::table(const RunnerOutcome& run, int index)
{
    const QList<QJsonObject> results = run.ofType("result");
    if (index >= results.size())
        return {};
    const QString text = results[index].value("bundle").toObject().value(kMime).toString();
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

RunnerOutcome TestRunnerTables::rows(const QString& handle, int start, int count,
                                     const QJsonValue& column, bool ascending)
{
    QJsonObject req{{"action", "table_rows"},
                    {"context", m_ctx},
                    {"handle", handle},
                    {"start", start},
                    {"count", count}};
    if (!column.isUndefined()) {
        req.insert("column", column);
        req.insert("ascending", ascending);
    }
    return m_host->run(req);
}

void TestRunnerTables::frameAndSeriesCarryTheTable()
{
    const RunnerOutcome run =
        m_host->runCode(m_ctx, "import pandas as pd, numpy as np\n"
                               "df = pd.DataFrame({'a': np.arange(1000), 'b': np.arange(1000) / 4, "
                               "'c': ['x'] * 999 + [None]})\n"
                               "df.loc[3, 'b'] = np.nan\n"
                               "display(df.a)\n"
                               "df");
    QVERIFY2(run.first("error").isEmpty(), qPrintable(run.describe()));
    QCOMPARE(run.ofType("result").size(), 2);
    const QJsonObject bundle = run.ofType("result")[1].value("bundle").toObject();
    QVERIFY(bundle.contains("text/html") && bundle.contains("text/plain"));
    QCOMPARE(run.ofType("result")[1].value("mime").toString(),
             QString("text/html")); // still the best for others
    const QJsonObject series = table(run, 0);
    QVERIFY(series.value("series").toBool());
    QCOMPARE(series.value("shape").toArray(), QJsonArray({1000, 1}));
    const QJsonObject t = table(run, 1);
    QCOMPARE(t.value("version").toInt(), 1);
    QCOMPARE(t.value("context").toString(), m_ctx);
    QCOMPARE(t.value("shape").toArray(), QJsonArray({1000, 3}));
    QCOMPARE(t.value("columns").toArray()[1].toObject().value("dtype").toString(),
             QString("float64"));
    QCOMPARE(t.value("columns").toArray()[1].toObject().value("kind").toString(), QString("f"));
    QCOMPARE(t.value("index_values").toArray().size(), 200); // the first rows only
    const QJsonArray b = t.value("data").toArray()[1].toArray();
    QCOMPARE(b.size(), 200);
    QCOMPARE(b[2].toDouble(), 0.5);
    QCOMPARE(b[3].toString(), QString("NaN")); // JSON has no NaN
    QVERIFY(t.value("handle").toString().contains('-'));
    QVERIFY(series.value("handle").toString() != t.value("handle").toString());

    // A wide frame sends fewer first rows (20,000 values at most), and pages of that size.
    const RunnerOutcome wide = m_host->runCode(m_ctx, "pd.DataFrame(np.zeros((300, 500)))");
    const QJsonObject w = table(wide);
    QCOMPARE(w.value("shape").toArray(), QJsonArray({300, 500}));
    QCOMPARE(w.value("index_values").toArray().size(), 40);
    const RunnerOutcome page = rows(w.value("handle").toString(), 100, 100);
    QCOMPARE(page.first("ok").value("index_values").toArray().size(), 40);
}

void TestRunnerTables::rowsPageAndSortInTheKernel()
{
    const RunnerOutcome run = m_host->runCode(
        m_ctx, "import pandas as pd, numpy as np\n"
               "df = pd.DataFrame({'a': np.arange(100000), 'k': np.arange(100000) % 10})\ndf");
    const int count = run.first("done").value("execution_count").toInt();
    QVERIFY2(count > 0, qPrintable(run.describe()));
    const QString handle = table(run).value("handle").toString();

    RunnerOutcome page = rows(handle, 99990, 100);
    QJsonObject ok = page.first("ok");
    QVERIFY2(!ok.isEmpty(), qPrintable(page.describe()));
    QCOMPARE(ok.value("rows").toInt(), 100000);
    QCOMPARE(ok.value("start").toInt(), 99990);
    QCOMPARE(ok.value("index_values").toArray().size(), 10); // the end of the frame
    QCOMPARE(ok.value("data").toArray()[0].toArray().last().toInt(), 99999);

    page = rows(handle, 0, 3, 0, false); // by a, descending
    ok = page.first("ok");
    QVERIFY2(!ok.isEmpty(), qPrintable(page.describe()));
    QCOMPARE(ok.value("data").toArray()[0].toArray(), QJsonArray({99999, 99998, 99997}));
    QCOMPARE(ok.value("index_values").toArray(), QJsonArray({99999, 99998, 99997}));
    page = rows(handle, 0, 3, 1, true); // by k: stable, so the index breaks ties
    QCOMPARE(page.first("ok").value("index_values").toArray(), QJsonArray({0, 10, 20}));
    page = rows(handle, 0, 2, -1, false); // by the index
    QCOMPARE(page.first("ok").value("index_values").toArray(), QJsonArray({99999, 99998}));

    // None of that moved the execution count or made output.
    const RunnerOutcome next = m_host->runCode(m_ctx, "1 + 1");
    QCOMPARE(next.first("done").value("execution_count").toInt(), count + 1);
    QCOMPARE(next.ofType("result").size(), 1);
}

void TestRunnerTables::badRequestsAreRefused_data()
{
    QTest::addColumn<QJsonObject>("request");
    QTest::addColumn<QString>("message");
    QTest::newRow("no handle") << QJsonObject{{"start", 0}} << "handle must be a table handle";
    QTest::newRow("path as handle")
        << QJsonObject{{"handle", "../x"}} << "handle must be a table handle";
    QTest::newRow("negative start") << QJsonObject{{"handle", "abcdefabcdef-1"}, {"start", -1}}
                                    << "start must be an integer >= 0";
    QTest::newRow("zero count") << QJsonObject{{"handle", "abcdefabcdef-1"}, {"count", 0}}
                                << "count must be an integer >= 1";
    QTest::newRow("column text") << QJsonObject{{"handle", "abcdefabcdef-1"}, {"column", "a"}}
                                 << "column must be a column number";
    QTest::newRow("unknown handle")
        << QJsonObject{{"handle", "abcdefabcdef-1"}} << "earlier kernel, which is gone";
}

void TestRunnerTables::badRequestsAreRefused()
{
    QFETCH(QJsonObject, request);
    QFETCH(QString, message);
    QVERIFY(m_host->runCode(m_ctx, "import pandas").first("error").isEmpty()); // a live kernel
    request.insert("action", "table_rows");
    request.insert("context", m_ctx);
    const RunnerOutcome r = m_host->run(request);
    QVERIFY2(r.first("fatal").value("message").toString().contains(message),
             qPrintable(r.describe()));
}

void TestRunnerTables::restartedKernelRefusesOldHandles()
{
    // A dead kernel: the answer says so and starts none.
    const qint64 first = RunnerHost::kernelPid(m_host->root(), m_ctx);
    QVERIFY(first > 0);
    m_host->killKernels();
    RunnerOutcome r = rows("abcdefabcdef-1", 0, 5);
    QVERIFY2(r.first("fatal").value("message").toString().contains("is gone"),
             qPrintable(r.describe()));
    QCOMPARE(RunnerHost::kernelPid(m_host->root(), m_ctx), first);

    const RunnerOutcome run =
        m_host->runCode(m_ctx, "import pandas as pd\npd.DataFrame({'a': range(500)})");
    const QString handle = table(run).value("handle").toString();
    QVERIFY2(!handle.isEmpty(), qPrintable(run.describe()));
    QVERIFY(!rows(handle, 300, 5).first("ok").isEmpty());
    QVERIFY(!m_host->run({{"action", "restart"}, {"context", m_ctx}}).first("ok").isEmpty());
    r = rows(handle, 300, 5);
    QVERIFY2(r.first("fatal").value("message").toString().contains("earlier kernel, which is gone"),
             qPrintable(r.describe()));
}

void TestRunnerTables::variableOpensAsTable()
{
    const auto forVariable = [this](const QString& name) {
        return m_host->run({{"action", "table_for_variable"}, {"context", m_ctx}, {"name", name}});
    };
    // No kernel yet: the answer says so and starts none.
    m_host->killKernels();
    RunnerOutcome r = forVariable("df");
    QVERIFY2(r.first("fatal").value("message").toString().contains("kernel is not running"),
             qPrintable(r.describe()));

    const RunnerOutcome run = m_host->runCode(
        m_ctx, "import pandas as pd, numpy as np\n"
               "df = pd.DataFrame({'a': np.arange(100000), 'b': np.arange(100000) / 2})\n"
               "s = df.b\nx = 3");
    const int count = run.first("done").value("execution_count").toInt();
    QVERIFY2(count > 0 && run.ofType("result").isEmpty(), qPrintable(run.describe()));

    r = forVariable("df");
    const QJsonObject t = r.first("ok");
    QVERIFY2(!t.isEmpty(), qPrintable(r.describe()));
    QCOMPARE(t.value("version").toInt(), 1);
    QCOMPARE(t.value("context").toString(), m_ctx);
    QVERIFY(!t.value("series").toBool());
    QCOMPARE(t.value("shape").toArray(), QJsonArray({100000, 2}));
    QCOMPARE(t.value("columns").toArray()[1].toObject().value("dtype").toString(),
             QString("float64"));
    QCOMPARE(t.value("index_values").toArray().size(), 200);
    // Its handle pages (and sorts) like a displayed frame's.
    const RunnerOutcome page = rows(t.value("handle").toString(), 99998, 10, 0, true);
    QCOMPARE(page.first("ok").value("data").toArray()[0].toArray(), QJsonArray({99998, 99999}));

    r = forVariable("s");
    QVERIFY(r.first("ok").value("series").toBool());
    QCOMPARE(r.first("ok").value("shape").toArray(), QJsonArray({100000, 1}));
    QVERIFY(r.first("ok").value("handle").toString() != t.value("handle").toString());

    r = forVariable("x");
    QVERIFY2(r.first("fatal").value("message").toString() ==
                 "x is of type int, not a pandas DataFrame or Series",
             qPrintable(r.describe()));
    r = forVariable("nope");
    QCOMPARE(r.first("fatal").value("message").toString(), QString("nope is not defined"));
    r = forVariable("a.b");
    QVERIFY(r.first("fatal").value("message").toString().contains("identifier"));

    // None of that moved the execution count or made output.
    const RunnerOutcome next = m_host->runCode(m_ctx, "1 + 1");
    QCOMPARE(next.first("done").value("execution_count").toInt(), count + 1);
}

QTEST_GUILESS_MAIN(TestRunnerTables)
#include "tst_runnertables.moc"
