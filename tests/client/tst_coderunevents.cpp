// The runner's output as the client reads it (no server): `part` pieces joined per request,
// stray lines ignored, the embedded runner present, and events mapped into a CodeRun.
#include "client/coderun/coderun.h"
#include "client/coderun/runnercall.h"
#include "client/coderun/runnerevents.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace lizard::client;
using nlohmann::json;

class TestCodeRunEvents : public QObject
{
    Q_OBJECT

private slots:
    void partsAreJoinedPerRequest();
    void junkLinesAreIgnored_data();
    void junkLinesAreIgnored();
    void runnerIsEmbedded();
    void argsAreBase64Json();
    void runCollectsAnExecution();
    void fatalFailsTheRun();
    void nothingAfterTheEnd();
    void malformedEventFailsTheRun();
    void tableRowsAreRead();
    void malformedTableRowsAreRefused_data();
    void malformedTableRowsAreRefused();
};

static QString line(const json& o)
{
    return QString::fromStdString(o.dump());
}

static std::string utf8(const QString& s)
{
    return s.toStdString();
}

void TestCodeRunEvents::partsAreJoinedPerRequest()
{
    RunnerEventDecoder d;
    const QString a = line({{"type", "stdout"}, {"data", std::string(100, 'a')}, {"req", "r1"}});
    const QString b = line({{"type", "stdout"}, {"data", std::string(100, 'b')}, {"req", "r2"}});
    // Two requests' pieces interleaved, as serve mode may print them.
    QVERIFY(!d.feed(
        line({{"type", "part"}, {"data", utf8(a.left(40))}, {"end", false}, {"req", "r1"}})));
    QVERIFY(!d.feed(
        line({{"type", "part"}, {"data", utf8(b.left(70))}, {"end", false}, {"req", "r2"}})));
    const auto first =
        d.feed(line({{"type", "part"}, {"data", utf8(a.mid(40))}, {"end", true}, {"req", "r1"}}));
    QVERIFY(first);
    QCOMPARE(first->value("data", std::string()), std::string(100, 'a'));
    const auto second =
        d.feed(line({{"type", "part"}, {"data", utf8(b.mid(70))}, {"end", true}, {"req", "r2"}}));
    QVERIFY(second);
    QCOMPARE(second->value("req", std::string()), std::string("r2"));
    QCOMPARE(d.junkLines(), 0);
}

void TestCodeRunEvents::junkLinesAreIgnored_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("not json") << "Traceback (most recent call last):";
    QTest::newRow("array") << "[1, 2]";
    QTest::newRow("empty") << "";
    QTest::newRow("type not a string") << R"({"type":3})";
    QTest::newRow("req not a string") << R"({"type":"done","req":["r1"]})";
}

void TestCodeRunEvents::junkLinesAreIgnored()
{
    QFETCH(QString, text);
    RunnerEventDecoder d;
    QVERIFY(!d.feed(text));
    QCOMPARE(d.junkLines(), 1);
    QVERIFY(d.feed(R"({"type":"done","execution_count":1})"));
}

void TestCodeRunEvents::runnerIsEmbedded()
{
    const QByteArray source = runnerSource();
    QVERIFY(source.contains("def serve("));
    QVERIFY(source.contains("def save_all("));
    QVERIFY(source.size() < 100 * 1024); // travels as one argv string
    // Its version is written once, in the source, and read from there.
    QVERIFY(QRegularExpression(R"(^\d+\.\d+\.\d+$)").match(runnerVersion()).hasMatch());
    QVERIFY(source.contains("VERSION = \"" + runnerVersion().toUtf8() + "\"\n"));
}

void TestCodeRunEvents::argsAreBase64Json()
{
    const json args{
        {"action", "run"}, {"code", "print('é')\n\t\"\x01"}, {"timeout", runnerNumber(60)}};
    const QByteArray decoded = QByteArray::fromBase64(encodeRunnerArgs(args).toLatin1());
    // The bytes the runner has always been sent: keys sorted, UTF-8 as it is, whole numbers
    // without ".0", control characters as \u00xx.
    QCOMPARE(decoded,
             QByteArray(R"({"action":"run","code":"print('é')\n\t\"\u0001","timeout":60})"));
    QCOMPARE(runnerRequestText(json{{"timeout", runnerNumber(0.5)}}),
             QByteArray(R"({"timeout":0.5})"));
}

void TestCodeRunEvents::runCollectsAnExecution()
{
    auto* call = new RunnerCall(json{{"action", "run"}});
    CodeRun run(call, "ctx-1", {}, nullptr);
    QSignalSpy out(&run, &CodeRun::stdoutReceived);
    QSignalSpy results(&run, &CodeRun::resultReceived);
    QSignalSpy updates(&run, &CodeRun::displayUpdated);
    QSignalSpy cleared(&run, &CodeRun::outputCleared);
    QSignalSpy finished(&run, &CodeRun::finished);
    call->deliver({{"type", "stdout"}, {"data", "a\n"}});
    call->deliver({{"type", "stdout"}, {"data", "b\n"}});
    call->deliver({{"type", "stderr"}, {"data", "warn\n"}});
    call->deliver({{"type", "result"},
                   {"mime", "image/png"},
                   {"data", "iVBO"},
                   {"display", true},
                   {"bundle", json{{"image/png", "iVBO"}, {"text/plain", "<Figure>"}}},
                   {"metadata", json{{"image/png", json{{"width", 640}}}}},
                   {"display_id", "d1"}});
    call->deliver({{"type", "update_display"},
                   {"mime", "text/plain"},
                   {"data", "new"},
                   {"display_id", "d1"},
                   {"bundle", json{{"text/plain", "new"}}}});
    call->deliver({{"type", "clear_output"}, {"wait", true}});
    call->deliver({{"type", "result"},
                   {"mime", "text/plain"},
                   {"data", "42"},
                   {"display", false},
                   {"execution_count", 3},
                   {"bundle", json{{"text/plain", "42"}}}});
    call->deliver({{"type", "notice"}, {"message", "fresh kernel"}});
    call->deliver({{"type", "done"}, {"execution_count", 3}});
    QCOMPARE(out.size(), 2);
    QCOMPARE(results.size(), 2);
    QCOMPARE(updates.size(), 1);
    QCOMPARE(cleared.first().first().toBool(), true);
    QCOMPARE(finished.size(), 1);
    const Execution& e = run.execution();
    QCOMPARE(e.stdoutText, QString("a\nb\n"));
    QCOMPARE(e.stderrText, QString("warn\n"));
    QCOMPARE(e.executionCount, 3);
    QCOMPARE(e.text(), QString("42"));
    QCOMPARE(e.results.size(), 2);
    QCOMPARE(e.results.first().data(), QString("new")); // the update replaced the display
    QVERIFY(!e.results.first().bundle.contains("image/png"));
    QCOMPARE(e.notices, QStringList{"fresh kernel"});
    QVERIFY(e.success());
    QVERIFY(run.isFinished());
}

void TestCodeRunEvents::fatalFailsTheRun()
{
    auto* call = new RunnerCall(json{{"action", "run"}});
    CodeRun run(call, "ctx-1", {}, nullptr);
    QSignalSpy failed(&run, &CodeRun::failed);
    call->deliver({{"type", "fatal"}, {"message", "context 'x' not found"}});
    QCOMPARE(failed.size(), 1);
    QCOMPARE(run.failure()->message, QString("context 'x' not found"));
    QVERIFY(run.hasFailed());
}

void TestCodeRunEvents::nothingAfterTheEnd()
{
    auto* call = new RunnerCall(json{{"action", "run"}});
    CodeRun run(call, "ctx-1", {}, nullptr);
    QSignalSpy any(&run, &CodeRun::stdoutReceived);
    QSignalSpy failed(&run, &CodeRun::failed);
    call->deliver({{"type", "done"}, {"execution_count", 1}});
    call->deliver({{"type", "stdout"}, {"data", "late"}});
    call->fail(runnerError("late failure"));
    QCOMPARE(any.size(), 0);
    QCOMPARE(failed.size(), 0);
}

void TestCodeRunEvents::malformedEventFailsTheRun()
{
    auto* call = new RunnerCall(json{{"action", "run"}});
    CodeRun run(call, "ctx-1", {}, nullptr);
    QSignalSpy failed(&run, &CodeRun::failed);
    call->deliver({{"type", "stdout"}, {"data", 42}}); // our runner never sends this
    QCOMPARE(failed.size(), 1);
    QVERIFY(run.failure()->message.contains("\"data\""));
    QCOMPARE(run.failure()->code, QString("RUNNER"));
}

void TestCodeRunEvents::tableRowsAreRead()
{
    const json answer{{"type", "ok"},
                      {"handle", "abc-1"},
                      {"start", 100},
                      {"rows", 1000},
                      {"index_values", json::array({100, "b"})},
                      {"data", json::array({json::array({1.5, nullptr}), json::array({true, 7})})}};
    QString why;
    const auto rows = tableRowsFromJson(answer, &why);
    QVERIFY2(rows, qPrintable(why));
    QCOMPARE(rows->handle, QString("abc-1"));
    QCOMPARE(rows->start, qint64(100));
    QCOMPARE(rows->totalRows, std::optional<qint64>(1000));
    QCOMPARE(rows->index, (QVariantList{qint64(100), QString("b")}));
    QCOMPARE(rows->columns.size(), 2);
    QCOMPARE(rows->columns[0].at(0).toDouble(), 1.5);
    QVERIFY(!rows->columns[0].at(1).isValid()); // null
    QCOMPARE(rows->columns[1], (QVariantList{true, qint64(7)}));
    // The first rows of a table output: no start, no total.
    const auto first =
        tableRowsFromJson(json{{"index_values", json::array()}, {"data", json::array()}}, &why);
    QVERIFY(first);
    QCOMPARE(first->start, qint64(0));
    QVERIFY(!first->totalRows);
}

void TestCodeRunEvents::malformedTableRowsAreRefused_data()
{
    QTest::addColumn<QString>("answer");
    QTest::addColumn<QString>("error");
    QTest::newRow("not an object") << "[1]"
                                   << "not a JSON object";
    QTest::newRow("no index") << R"({"data":[]})"
                              << "\"index_values\" must be a list";
    QTest::newRow("data not a list") << R"({"index_values":[],"data":"x"})"
                                     << "\"data\" must be a list of columns";
    QTest::newRow("bad start") << R"({"index_values":[],"data":[],"start":-1})"
                               << "\"start\" must be a row number";
}

void TestCodeRunEvents::malformedTableRowsAreRefused()
{
    QFETCH(QString, answer);
    QFETCH(QString, error);
    QString why;
    QVERIFY(!tableRowsFromJson(json::parse(answer.toStdString()), &why));
    QVERIFY2(why.contains(error), qPrintable(why));
}

QTEST_GUILESS_MAIN(TestCodeRunEvents)
#include "tst_coderunevents.moc"
