// Typed outputs on a cell: stream merging as Jupyter does it, rich results that keep every MIME
// entry, errors with ANSI tracebacks, and the signals a cell view repaints from.

#include "notebook/cell.h"

#include <QSignalSpy>
#include <QTest>

using namespace lizard::notebook;

Q_DECLARE_METATYPE(std::vector<lizard::notebook::Output>)

class TestCell : public QObject
{
    Q_OBJECT
private slots:
    void appendOutput_data();
    void appendOutput();
    void richOutputKeepsEveryMime();
    void outputTypeNames();
    void invalidIdIsReplaced();
};

void TestCell::appendOutput_data()
{
    QTest::addColumn<std::vector<Output>>("appended");
    QTest::addColumn<QStringList>("expected"); // "<type>:<text>" per resulting output
    QTest::addColumn<int>("added");
    QTest::addColumn<int>("changed");

    const Output out1 = StreamOutput{"stdout", "a\n"};
    const Output out2 = StreamOutput{"stdout", "b\n"};
    const Output err1 = StreamOutput{"stderr", "warn\n"};
    const Output rich = RichOutput{RichOutput::Kind::DisplayData, {{"text/plain", "R"}}, {}, {}};
    const Output error = ErrorOutput{"E", "v", {"tb"}};

    QTest::newRow("same stream merges")
        << std::vector<Output>{out1, out2} << QStringList{"stream:a\nb\n"} << 1 << 1;
    QTest::newRow("different streams stay apart")
        << std::vector<Output>{out1, err1, out2}
        << QStringList{"stream:a\n", "stream:warn\n", "stream:b\n"} << 3 << 0;
    QTest::newRow("a result breaks the run")
        << std::vector<Output>{out1, rich, out2}
        << QStringList{"stream:a\n", "display_data:R", "stream:b\n"} << 3 << 0;
    QTest::newRow("three chunks of one line")
        << std::vector<Output>{Output(StreamOutput{"stdout", "x"}),
                               Output(StreamOutput{"stdout", "y"}),
                               Output(StreamOutput{"stdout", "z\n"})}
        << QStringList{"stream:xyz\n"} << 1 << 2;
    QTest::newRow("error after stream")
        << std::vector<Output>{out1, error} << QStringList{"stream:a\n", "error:v"} << 2 << 0;
}

void TestCell::appendOutput()
{
    QFETCH(std::vector<Output>, appended);
    QFETCH(QStringList, expected);
    QFETCH(int, added);
    QFETCH(int, changed);
    Cell cell(CellData{});
    QSignalSpy addedSpy(&cell, &Cell::outputAdded);
    QSignalSpy changedSpy(&cell, &Cell::outputChanged);
    QSignalSpy edited(&cell, &Cell::edited);
    for (const Output& o : appended)
        cell.appendOutput(o);

    QStringList got;
    for (const Output& o : cell.outputs()) {
        QString text;
        if (const auto* s = std::get_if<StreamOutput>(&o))
            text = s->text;
        else if (const auto* r = std::get_if<RichOutput>(&o))
            text = r->text("text/plain");
        else
            text = std::get<ErrorOutput>(o).evalue;
        got << outputTypeName(o) + ':' + text;
    }
    QCOMPARE(got, expected);
    QCOMPARE(addedSpy.size(), added);
    QCOMPARE(changedSpy.size(), changed);
    QCOMPARE(edited.size(), int(appended.size()));
    for (int i = 0; i < addedSpy.size(); ++i)
        QCOMPARE(addedSpy.at(i).at(0).toInt(), i); // each new output at the next index
    for (const QList<QVariant>& args : std::as_const(changedSpy))
        QCOMPARE(args.at(0).toInt(), int(cell.outputs().size()) - 1);

    // Replacing an output in place.
    const int last = int(cell.outputs().size()) - 1;
    const int changedBefore = int(changedSpy.size());
    QVERIFY(cell.setOutput(last, StreamOutput{"stdout", "replaced"}));
    QCOMPARE(std::get<StreamOutput>(cell.outputs().back()).text, QString("replaced"));
    QCOMPARE(changedSpy.size(), changedBefore + 1);
    QCOMPARE(changedSpy.last().at(0).toInt(), last);
    QVERIFY(!cell.setOutput(last + 1, StreamOutput{}));
    QVERIFY(!cell.setOutput(-1, StreamOutput{}));

    QSignalSpy cleared(&cell, &Cell::outputsCleared);
    cell.clearOutputs();
    QVERIFY(cell.outputs().empty());
    QCOMPARE(cleared.size(), 1);
}

void TestCell::richOutputKeepsEveryMime()
{
    RichOutput r;
    r.kind = RichOutput::Kind::ExecuteResult;
    r.data = {{"text/plain", "<Figure>"},
              {"image/png", "iVBORw0KGgo="},
              {"application/json", {{"a", 1}, {"b", {1, 2}}}},
              {"text/html", "<b>x</b>"}};
    r.metadata = {{"image/png", {{"width", 640}}}};
    r.executionCount = 4;
    Cell cell(CellData{});
    cell.appendOutput(r);
    const auto& got = std::get<RichOutput>(cell.outputs().at(0));
    QCOMPARE(got, r);
    QCOMPARE(got.mimeTypes().size(), 4);
    QVERIFY(got.has("image/png"));
    QVERIFY(!got.has("image/jpeg"));
    QCOMPARE(got.text("image/png"), QString("iVBORw0KGgo="));
    QCOMPARE(got.text("application/json"), QString(R"({"a":1,"b":[1,2]})"));
    QCOMPARE(got.text("image/jpeg"), QString());
    QVERIFY(isJsonMime("application/json"));
    QVERIFY(isJsonMime("application/vnd.vega.v5+json"));
    QVERIFY(!isJsonMime("text/plain"));
}

void TestCell::outputTypeNames()
{
    QCOMPARE(outputTypeName(StreamOutput{}), QString("stream"));
    QCOMPARE(outputTypeName(RichOutput{RichOutput::Kind::ExecuteResult, {}, {}, {}}),
             QString("execute_result"));
    QCOMPARE(outputTypeName(RichOutput{}), QString("display_data"));
    QCOMPARE(outputTypeName(ErrorOutput{}), QString("error"));
}

void TestCell::invalidIdIsReplaced()
{
    CellData d;
    d.id = "not valid!";
    Cell cell(d);
    QVERIFY(isValidCellId(cell.id()));
    QCOMPARE(cell.id().size(), 8);
    QVERIFY(!isValidCellId(QString(65, 'a')));
    QVERIFY(isValidCellId(QString(64, 'a')));
}

QTEST_GUILESS_MAIN(TestCell)
#include "tst_cell.moc"
