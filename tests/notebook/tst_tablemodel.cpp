// A displayed DataFrame as a table model (notebook/tablemodel.h) with a fetcher standing in for the
// kernel: the output's MIME parsed (and malformed ones refused with a clear error), rows paged in
// blocks as the view asks, "…" while a block is on its way, a bounded cache, sorting asked of the
// kernel, stale pages of an old order dropped, the kernel gone (rows kept, the reason said), TSV.
#include "notebook/ipynbwriter.h"
#include "notebook/tabledata.h"
#include "notebook/tablemodel.h"

#include <QSignalSpy>
#include <QtTest>

using namespace lizard::notebook;
using nlohmann::json;

namespace {

// A frame of `rows` rows: column a = row * 10, column b = "r<row>", index = row. Sorted
// descending by a (column 0 for the runner), row i holds original row rows-1-i.
json page(qint64 start, int count, qint64 rows, bool descending = false)
{
    json index = json::array(), a = json::array(), b = json::array();
    for (qint64 i = start; i < std::min(rows, start + count); ++i) {
        const qint64 r = descending ? rows - 1 - i : i;
        index.push_back(r);
        a.push_back(r * 10);
        b.push_back("r" + std::to_string(r));
    }
    return json{{"handle", "abcdefabcdef-1"},
                {"start", start},
                {"rows", rows},
                {"index_values", index},
                {"data", json::array({a, b})}};
}

// A page as the client hands it over, from the runner's JSON.
lizard::client::TableRows rowsOf(const json& page)
{
    return lizard::client::tableRowsFromJson(page, nullptr).value();
}

json tableMime(qint64 rows, int first = 200)
{
    json t = page(0, first, rows);
    t["version"] = 1;
    t["context"] = "ctx-1";
    t["series"] = false;
    t["shape"] = json::array({rows, 2});
    t["columns"] = json::array({json{{"name", "a"}, {"dtype", "int64"}, {"kind", "i"}},
                                json{{"name", "b"}, {"dtype", "object"}, {"kind", "O"}}});
    t["index"] = json{{"name", ""}, {"dtype", "int64"}, {"kind", "i"}};
    return t;
}

struct FakeKernel
{
    QList<TableRowsRequest> asked;
    QList<std::function<void()>> pending;
    qint64 rows = 1000000;
    QString goneReason;
    TableModel::Fetcher fetcher()
    {
        return [this](const TableRowsRequest& req, QObject*, CodeRunner::TableRowsDone done) {
            asked.append(req);
            pending.append([this, req, done] {
                if (!goneReason.isEmpty())
                    done({}, goneReason);
                else
                    done(
                        rowsOf(page(req.start, req.count, rows, req.column == 0 && !req.ascending)),
                        QString());
            });
        };
    }
    void answerAll()
    {
        while (!pending.isEmpty()) {
            pending.takeFirst()();
            QCoreApplication::processEvents(); // the model asks for the next wanted block
        }
    }
};

// Each test's model goes before its FakeKernel (declared first), which its fetcher points at.
std::unique_ptr<TableModel> makeModel(qint64 rows)
{
    QString error;
    std::optional<TableInfo> info = parseTable(tableMime(rows), &error);
    if (!info)
        qFatal("%s", qPrintable(error));
    return std::make_unique<TableModel>(*info);
}

} // namespace

class TestTableModel : public QObject
{
    Q_OBJECT
private slots:
    void parsesTheMime();
    void malformedMimeIsRefused_data();
    void malformedMimeIsRefused();
    void cellText();
    void shapeText();
    void firstRowsNeedNoFetch();
    void rowsComePageByPage();
    void cacheIsBounded();
    void sortAsksTheKernel();
    void stalePagesAreDropped();
    void kernelGoneKeepsRows();
    void malformedPageMeansNoMoreRows();
    void sortWithKernelGoneKeepsRows();
    void copiesTsv();
    void ipynbKeepsHtmlNotTheTable();
    void wideFramePagesFewerRows();
};

void TestTableModel::parsesTheMime()
{
    QString error;
    const auto t = parseTable(tableMime(1000000), &error);
    QVERIFY2(t, qPrintable(error));
    QCOMPARE(t->handle, QString("abcdefabcdef-1"));
    QCOMPARE(t->context, QString("ctx-1"));
    QCOMPARE(t->rows, 1000000);
    QCOMPARE(t->columns.size(), 2);
    QCOMPARE(t->columns[0].name, QString("a"));
    QVERIFY(t->columns[0].isNumeric());
    QVERIFY(!t->columns[1].isNumeric());
    QCOMPARE(t->first.rowCount(), 200);
    QCOMPARE(t->first.columns[1][5], QString("r5"));
}

void TestTableModel::malformedMimeIsRefused_data()
{
    QTest::addColumn<QByteArray>("mime");
    QTest::addColumn<QString>("error");
    const auto with = [](const char* key, json value) {
        json t = tableMime(300);
        t[key] = value;
        return QByteArray::fromStdString(t.dump());
    };
    json noKey = tableMime(300);
    noKey.erase("data");
    json shortColumn = tableMime(300);
    shortColumn["data"][1].erase(0);
    json noHandle = tableMime(300);
    noHandle.erase("handle");
    QTest::newRow("not an object") << QByteArray("[1, 2]") << "not a JSON object";
    QTest::newRow("other version") << with("version", 7) << "unknown version";
    QTest::newRow("bad shape") << with("shape", json::array({-1, 2}))
                               << "\"shape\" must be [rows, columns]";
    QTest::newRow("shape text") << with("shape", "big") << "\"shape\" must be [rows, columns]";
    QTest::newRow("columns do not match")
        << with("columns", json::array()) << "\"columns\" must list the 2 columns";
    QTest::newRow("column not object")
        << with("columns", json::array({1, 2})) << "column 0 is not an object";
    QTest::newRow("no data") << QByteArray::fromStdString(noKey.dump())
                             << "\"data\" must be a list of columns";
    QTest::newRow("ragged data") << QByteArray::fromStdString(shortColumn.dump())
                                 << "column 1 of \"data\" does not have 200 values";
    QTest::newRow("index text") << with("index_values", "x") << "\"index_values\" must be a list";
    QTest::newRow("more rows than shape")
        << with("shape", json::array({10, 2})) << "do not fit the shape";
    QTest::newRow("no handle") << QByteArray::fromStdString(noHandle.dump()) << "no \"handle\"";
}

void TestTableModel::malformedMimeIsRefused()
{
    QFETCH(QByteArray, mime);
    QFETCH(QString, error);
    QString why;
    const auto t = parseTable(json::parse(mime.toStdString()), &why);
    QVERIFY(!t);
    QVERIFY2(why.startsWith("malformed table: ") && why.contains(error), qPrintable(why));
}

void TestTableModel::cellText()
{
    QCOMPARE(tableCellText(json(3)), QString("3"));
    QCOMPARE(tableCellText(json(2.5)), QString("2.5"));
    QCOMPARE(tableCellText(json(4.0)), QString("4.0"));
    QCOMPARE(tableCellText(json(nullptr)), QString("None"));
    QCOMPARE(tableCellText(json(true)), QString("True"));
    QCOMPARE(tableCellText(json("NaN")), QString("NaN"));
    QCOMPARE(tableCellText(json::array({1, 2})), QString("[1,2]"));
    QCOMPARE(tableCellText(json(2), "f"), QString("2.0")); // JSON on the way may drop ".0"
    QCOMPARE(tableCellText(json(2), "i"), QString("2"));
}

void TestTableModel::shapeText()
{
    QCOMPARE(tableShapeText(1000000, 5), QString("1,000,000 rows × 5 columns"));
    QCOMPARE(tableShapeText(1, 1), QString("1 row × 1 column"));
}

void TestTableModel::firstRowsNeedNoFetch()
{
    FakeKernel kernel;
    auto model = makeModel(150);
    model->setFetcher(kernel.fetcher());
    QCOMPARE(model->rowCount(), 150);
    QCOMPARE(model->columnCount(), 3); // index, a, b
    QCOMPARE(model->data(model->index(149, 1)).toString(), QString("1490"));
    QCOMPARE(model->data(model->index(149, 0)).toString(), QString("149"));
    QCoreApplication::processEvents();
    QVERIFY(kernel.asked.isEmpty());
    QCOMPARE(model->data(model->index(0, 1), Qt::TextAlignmentRole).value<Qt::Alignment>() &
                 Qt::AlignRight,
             Qt::AlignRight);
    QCOMPARE(model->data(model->index(0, 2), Qt::TextAlignmentRole).value<Qt::Alignment>() &
                 Qt::AlignLeft,
             Qt::AlignLeft);
    QCOMPARE(model->headerData(1, Qt::Horizontal).toString(), QString("a"));
}

void TestTableModel::rowsComePageByPage()
{
    FakeKernel kernel;
    auto model = makeModel(1000000);
    model->setFetcher(kernel.fetcher());
    QSignalSpy changed(model.get(), &QAbstractItemModel::dataChanged);
    QCOMPARE(model->data(model->index(500123, 1)).toString(), QString("…"));
    QCOMPARE(model->data(model->index(500150, 2)).toString(), QString("…"));
    QCoreApplication::processEvents();
    QCOMPARE(kernel.asked.size(), 1); // one block for both rows
    QCOMPARE(kernel.asked[0].start, 500100);
    QCOMPARE(kernel.asked[0].count, TableModel::kBlockRows);
    QCOMPARE(kernel.asked[0].handle, QString("abcdefabcdef-1"));
    QCOMPARE(kernel.asked[0].context, QString("ctx-1"));
    QVERIFY(!kernel.asked[0].column);
    QVERIFY(model->isLoading());
    kernel.answerAll();
    QVERIFY(!model->isLoading());
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed[0][0].value<QModelIndex>().row(), 500100);
    QCOMPARE(changed[0][1].value<QModelIndex>().row(), 500199);
    QCOMPARE(model->data(model->index(500123, 1)).toString(), QString("5001230"));
    QCOMPARE(model->data(model->index(500150, 2)).toString(), QString("r500150"));
    // The last rows: a short block at the end.
    QCOMPARE(model->data(model->index(999999, 1)).toString(), QString("…"));
    QCoreApplication::processEvents();
    kernel.answerAll();
    QCOMPARE(model->data(model->index(999999, 1)).toString(), QString("9999990"));
    // Scrolling fast asks many blocks: only the newest kMaxWanted are fetched, newest first.
    kernel.asked.clear();
    for (int b = 0; b < 30; ++b)
        model->data(model->index(10000 + b * TableModel::kBlockRows, 1));
    QCoreApplication::processEvents();
    kernel.answerAll();
    QCOMPARE(kernel.asked.size(), TableModel::kMaxWanted);
    QCOMPARE(kernel.asked[0].start, 10000 + 29 * TableModel::kBlockRows);
}

void TestTableModel::cacheIsBounded()
{
    FakeKernel kernel;
    auto model = makeModel(1000000);
    model->setFetcher(kernel.fetcher());
    for (int b = 0; b < TableModel::kMaxBlocks + 50; ++b) {
        model->data(model->index(b * TableModel::kBlockRows, 1));
        QCoreApplication::processEvents();
        kernel.answerAll();
    }
    QCOMPARE(model->cachedBlocks(), TableModel::kMaxBlocks);
    QVERIFY(!model->isLoaded(0)); // the oldest went
    QVERIFY(model->isLoaded((TableModel::kMaxBlocks + 49) * TableModel::kBlockRows));
}

void TestTableModel::sortAsksTheKernel()
{
    FakeKernel kernel;
    auto model = makeModel(1000000);
    model->setFetcher(kernel.fetcher());
    QVERIFY(model->sortBy(1, Qt::DescendingOrder));
    QCOMPARE(model->sortColumn(), 1);
    QCOMPARE(model->data(model->index(0, 1)).toString(),
             QString("…")); // the first rows were the old order
    QCoreApplication::processEvents();
    QCOMPARE(kernel.asked.size(), 1);
    QCOMPARE(kernel.asked[0].column, std::optional<int>(0)); // column 1 is the frame's first
    QVERIFY(!kernel.asked[0].ascending);
    kernel.answerAll();
    QCOMPARE(model->data(model->index(0, 1)).toString(), QString("9999990"));
    QCOMPARE(model->data(model->index(0, 0)).toString(), QString("999999"));
    // Column 0 sorts by the index: -1 for the runner.
    QVERIFY(model->sortBy(0, Qt::AscendingOrder));
    model->data(model->index(0, 1));
    QCoreApplication::processEvents();
    QCOMPARE(kernel.asked.last().column, std::optional<int>(-1));
}

void TestTableModel::stalePagesAreDropped()
{
    FakeKernel kernel;
    auto model = makeModel(1000000);
    model->setFetcher(kernel.fetcher());
    model->data(model->index(5000, 1));
    QCoreApplication::processEvents();
    QCOMPARE(kernel.asked.size(), 1);
    QVERIFY(model->sortBy(1, Qt::DescendingOrder)); // while the unsorted page is on its way
    kernel.answerAll();
    QVERIFY(!model->isLoaded(5000)); // it was for the old order
    QCOMPARE(model->data(model->index(5000, 1)).toString(), QString("…"));
}

void TestTableModel::kernelGoneKeepsRows()
{
    FakeKernel kernel;
    auto model = makeModel(1000000);
    model->setFetcher(kernel.fetcher());
    QSignalSpy gone(model.get(), &TableModel::unavailable);
    kernel.goneReason = "the kernel that showed this table is gone";
    model->data(model->index(700000, 1));
    QCoreApplication::processEvents();
    kernel.answerAll();
    QCOMPARE(gone.size(), 1);
    QCOMPARE(model->unavailableReason(), kernel.goneReason);
    QCOMPARE(model->data(model->index(700000, 1)).toString(), QString());    // not "…" for ever
    QCOMPARE(model->data(model->index(199, 1)).toString(), QString("1990")); // kept
    QVERIFY(!model->sortBy(1, Qt::DescendingOrder));
    QCOMPARE(model->data(model->index(0, 1)).toString(), QString("0"));
    kernel.asked.clear();
    model->data(model->index(800000, 1));
    QCoreApplication::processEvents();
    QVERIFY(kernel.asked.isEmpty()); // no more asking
}

void TestTableModel::malformedPageMeansNoMoreRows()
{
    auto model = makeModel(1000000);
    model->setFetcher([](const TableRowsRequest&, QObject*, CodeRunner::TableRowsDone done) {
        lizard::client::TableRows rows; // one row, none of the table's two columns
        rows.index = {1};
        done(rows, QString());
    });
    model->data(model->index(300000, 1));
    QCoreApplication::processEvents();
    QVERIFY2(model->unavailableReason().contains("\"data\" has 0 columns, the table 2"),
             qPrintable(model->unavailableReason()));
    QCOMPARE(model->data(model->index(10, 2)).toString(), QString("r10"));
}

void TestTableModel::sortWithKernelGoneKeepsRows()
{
    FakeKernel kernel;
    auto model = makeModel(1000000);
    model->setFetcher(kernel.fetcher());
    kernel.goneReason = "the kernel that showed this table is gone (it was restarted)";
    QVERIFY(model->sortBy(1, Qt::DescendingOrder)); // not known yet that it is gone
    model->data(model->index(0, 1));
    QCoreApplication::processEvents();
    kernel.answerAll();
    QCOMPARE(model->unavailableReason(), kernel.goneReason);
    QCOMPARE(model->sortColumn(), -1); // the order the rows are in
    QCOMPARE(model->data(model->index(0, 1)).toString(), QString("0"));
    QCOMPARE(model->data(model->index(199, 2)).toString(), QString("r199"));
}

void TestTableModel::copiesTsv()
{
    auto model = makeModel(1000000);
    QModelIndexList sel;
    for (int r = 2; r <= 3; ++r)
        for (int c = 0; c <= 2; ++c)
            sel << model->index(r, c);
    sel << model->index(600000, 1); // not here: left out
    int missing = 0;
    QCOMPARE(model->toTsv(sel, &missing), QString("2\t20\tr2\n3\t30\tr3\n"));
    QCOMPARE(missing, 1);
}

void TestTableModel::ipynbKeepsHtmlNotTheTable()
{
    // The handle means nothing without its kernel, and the HTML already has the first rows:
    // the file keeps pandas' HTML and text (what JupyterLab shows), not the table MIME.
    RichOutput r;
    r.kind = RichOutput::Kind::ExecuteResult;
    r.executionCount = 1;
    r.data["text/html"] = "<table><tr><td>1</td></tr></table>";
    r.data["text/plain"] = "   a\n0  1";
    r.data[kTableMime] = tableMime(1);
    NotebookData nb;
    CellData cell;
    cell.source = "df";
    cell.executionCount = 1;
    cell.outputs = OutputList{r};
    nb.cells.push_back(cell);
    const json out = IpynbWriter::toJson(nb)["cells"][0]["outputs"][0]["data"];
    QVERIFY(out.contains("text/html"));
    QVERIFY(out.contains("text/plain"));
    QVERIFY(!out.contains(kTableMime));
}

void TestTableModel::wideFramePagesFewerRows()
{
    // 500 columns: the runner sends 40 rows a page (20,000 values), so blocks are 40 rows.
    TableInfo info;
    info.handle = "abcdefabcdef-2";
    info.rows = 1000;
    for (int c = 0; c < 500; ++c)
        info.columns.append({QString::number(c), "float64", "f"});
    TableModel model(info);
    QCOMPARE(model.blockRows(), 40);
    QList<TableRowsRequest> asked;
    model.setFetcher([&](const TableRowsRequest& req, QObject*, CodeRunner::TableRowsDone done) {
        asked.append(req);
        json index = json::array(), data = json::array();
        for (int i = 0; i < req.count; ++i)
            index.push_back(req.start + i);
        for (int c = 0; c < 500; ++c)
            data.push_back(index);
        done(rowsOf(json{{"start", req.start}, {"index_values", index}, {"data", data}}),
             QString());
    });
    QCOMPARE(model.data(model.index(85, 3)).toString(), QString("…"));
    QCoreApplication::processEvents();
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked[0].start, 80);
    QCOMPARE(asked[0].count, 40);
    QCOMPARE(model.data(model.index(85, 3)).toString(), QString("85.0"));
}

QTEST_GUILESS_MAIN(TestTableModel)
#include "tst_tablemodel.moc"
