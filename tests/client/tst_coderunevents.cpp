// The runner's output as the client reads it (no server): `part` pieces joined per request,
// stray lines ignored, the embedded runner present, and events mapped into a CodeRun.
#include "client/coderun/coderun.h"
#include "client/coderun/runnercall.h"
#include "client/coderun/runnerevents.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace lizard::client;

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
};

static QString line(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

void TestCodeRunEvents::partsAreJoinedPerRequest()
{
    RunnerEventDecoder d;
    const QString a = line({{"type", "stdout"}, {"data", QString(100, 'a')}, {"req", "r1"}});
    const QString b = line({{"type", "stdout"}, {"data", QString(100, 'b')}, {"req", "r2"}});
    // Two requests' pieces interleaved, as serve mode may print them.
    QVERIFY(!d.feed(line({{"type", "part"}, {"data", a.left(40)}, {"end", false}, {"req", "r1"}})));
    QVERIFY(!d.feed(line({{"type", "part"}, {"data", b.left(70)}, {"end", false}, {"req", "r2"}})));
    const auto first =
        d.feed(line({{"type", "part"}, {"data", a.mid(40)}, {"end", true}, {"req", "r1"}}));
    QVERIFY(first);
    QCOMPARE(first->value("data").toString(), QString(100, 'a'));
    const auto second =
        d.feed(line({{"type", "part"}, {"data", b.mid(70)}, {"end", true}, {"req", "r2"}}));
    QVERIFY(second);
    QCOMPARE(second->value("req").toString(), QString("r2"));
    QCOMPARE(d.junkLines(), 0);
}

void TestCodeRunEvents::junkLinesAreIgnored_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("not json") << "Traceback (most recent call last):";
    QTest::newRow("array") << "[1, 2]";
    QTest::newRow("empty") << "";
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
    const QJsonObject args{{"action", "run"}, {"code", "print('é')"}};
    const QByteArray decoded = QByteArray::fromBase64(encodeRunnerArgs(args).toLatin1());
    QCOMPARE(QJsonDocument::fromJson(decoded).object(), args);
}

void TestCodeRunEvents::runCollectsAnExecution()
{
    auto* call = new RunnerCall({{"action", "run"}});
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
                   {"bundle", QJsonObject{{"image/png", "iVBO"}, {"text/plain", "<Figure>"}}},
                   {"metadata", QJsonObject{{"image/png", QJsonObject{{"width", 640}}}}},
                   {"display_id", "d1"}});
    call->deliver({{"type", "update_display"},
                   {"mime", "text/plain"},
                   {"data", "new"},
                   {"display_id", "d1"},
                   {"bundle", QJsonObject{{"text/plain", "new"}}}});
    call->deliver({{"type", "clear_output"}, {"wait", true}});
    call->deliver({{"type", "result"},
                   {"mime", "text/plain"},
                   {"data", "42"},
                   {"display", false},
                   {"execution_count", 3},
                   {"bundle", QJsonObject{{"text/plain", "42"}}}});
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
    auto* call = new RunnerCall({{"action", "run"}});
    CodeRun run(call, "ctx-1", {}, nullptr);
    QSignalSpy failed(&run, &CodeRun::failed);
    call->deliver({{"type", "fatal"}, {"message", "context 'x' not found"}});
    QCOMPARE(failed.size(), 1);
    QCOMPARE(run.failure()->message, QString("context 'x' not found"));
    QVERIFY(run.hasFailed());
}

void TestCodeRunEvents::nothingAfterTheEnd()
{
    auto* call = new RunnerCall({{"action", "run"}});
    CodeRun run(call, "ctx-1", {}, nullptr);
    QSignalSpy any(&run, &CodeRun::stdoutReceived);
    QSignalSpy failed(&run, &CodeRun::failed);
    call->deliver({{"type", "done"}, {"execution_count", 1}});
    call->deliver({{"type", "stdout"}, {"data", "late"}});
    call->fail(runnerError("late failure"));
    QCOMPARE(any.size(), 0);
    QCOMPARE(failed.size(), 0);
}

QTEST_GUILESS_MAIN(TestCodeRunEvents)
#include "tst_coderunevents.moc"
