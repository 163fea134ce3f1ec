// Find, replace and the table of contents over the notebook document: what matches where
// (sources, stream text, text/plain, tracebacks without colour codes), document order, case,
// replacing, headings by level outside code fences, and the watcher that says when to redo them.
#include "notebook/documentwatcher.h"
#include "notebook/notebookdocument.h"
#include "notebook/notebooksearch.h"
#include "notebook/notebooktoc.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

using namespace lizard::notebook;
using Place = SearchMatch::Place;

class TestNotebookNav : public QObject
{
    Q_OBJECT
private slots:
    void findsInSourcesAndOutputs();
    void caseSensitivity();
    void emptyNeedleFindsNothing();
    void spilledStreamSearchesWhatIsKept();
    void documentOrder();
    void replaceAll();
    void headings();
    void headingsSkipCodeFences();
    void tableOfContentsOfDocument();
    void watcherSaysOnceForABurst();
    void bigNotebookTiming();
};

namespace {
NotebookData sample()
{
    NotebookData data;
    CellData md;
    md.type = CellType::Markdown;
    md.source = "# Loading data\nWe load the data.";
    data.cells.push_back(md);
    CellData code;
    code.source = "data = load()\nprint(data)";
    code.outputs.push_back(StreamOutput{"stdout", "data loaded: 3 rows\n", std::nullopt});
    RichOutput result;
    result.kind = RichOutput::Kind::ExecuteResult;
    result.data = {{"text/plain", "Data(3)"}, {"image/png", "ZGF0YQ=="}};
    code.outputs.push_back(result);
    code.outputs.push_back(
        ErrorOutput{"NameError",
                    "name 'data2' is not defined",
                    {"\x1b[0;31mNameError\x1b[0m: name 'data2' is not defined"}});
    data.cells.push_back(code);
    return data;
}
} // namespace

void TestNotebookNav::findsInSourcesAndOutputs()
{
    const QList<SearchMatch> m = findInNotebook(sample(), "data", Qt::CaseInsensitive);
    // md: "data" x1 (Loading data... "We load the data") -> "Loading data", "the data" = 2
    QList<SearchMatch> md, src, out;
    for (const SearchMatch& x : m)
        (x.cell == 0 ? md : x.place == Place::InSource ? src : out).append(x);
    QCOMPARE(md.size(), 2);
    QCOMPARE(md[0], (SearchMatch{0, Place::InSource, -1, 10, 4}));
    QCOMPARE(src.size(), 2);
    QCOMPARE(src[1].start, int(QString("data = load()\nprint(").size()));
    // stream 1, text/plain 1 (the PNG's base64 is not text), error: 2 in "ename: evalue" + 1 line
    QCOMPARE(out.size(), 1 + 1 + 2);
    QCOMPARE(out[0].output, 0);
    QCOMPARE(out[1].output, 1);
    QCOMPARE(out[2].output, 2);
    // The traceback is searched without its colour codes.
    const QString error = outputSearchText(sample().cells[1].outputs[2]);
    QVERIFY(!error.contains(QChar(0x1b)));
    QCOMPARE(error.mid(out[3].start, out[3].length), QString("data"));
    QVERIFY(error.endsWith("NameError: name 'data2' is not defined"));
}

void TestNotebookNav::caseSensitivity()
{
    QCOMPARE(findInNotebook(sample(), "Data", Qt::CaseSensitive).size(), 1); // Data(3)
    QCOMPARE(findInNotebook(sample(), "DATA", Qt::CaseSensitive).size(), 0);
    QCOMPARE(findInNotebook(sample(), "DATA", Qt::CaseInsensitive).size(), 8);
}

void TestNotebookNav::emptyNeedleFindsNothing()
{
    QVERIFY(findInNotebook(sample(), "", Qt::CaseInsensitive).isEmpty());
    QVERIFY(findInText("abc", "", Qt::CaseInsensitive).isEmpty());
    // Non-overlapping, left to right.
    QCOMPARE(findInText("aaaa", "aa", Qt::CaseSensitive),
             (QList<std::pair<int, int>>{{0, 2}, {2, 2}}));
}

void TestNotebookNav::spilledStreamSearchesWhatIsKept()
{
    StreamOutput s{"stdout", "tail needle\n", SpilledText{nullptr, 100, 100, 3, "head needle\n"}};
    QCOMPARE(findInText(outputSearchText(s), "needle", Qt::CaseSensitive).size(), 2);
}

void TestNotebookNav::documentOrder()
{
    const QList<SearchMatch> m = findInNotebook(sample(), "a", Qt::CaseInsensitive);
    QVERIFY(m.size() > 5);
    for (int i = 1; i < m.size(); ++i)
        QVERIFY2(comesBefore(m[i - 1], m[i]), qPrintable(QString::number(i)));
    QVERIFY(!comesBefore(m[0], m[0]));
}

void TestNotebookNav::replaceAll()
{
    int n = -1;
    QCOMPARE(replaceAllInText("Data data DATA", "data", "df", Qt::CaseInsensitive, &n),
             QString("df df df"));
    QCOMPARE(n, 3);
    QCOMPARE(replaceAllInText("Data data DATA", "data", "df", Qt::CaseSensitive, &n),
             QString("Data df DATA"));
    QCOMPARE(n, 1);
    // The replacement containing the needle does not loop.
    QCOMPARE(replaceAllInText("x x", "x", "xx", Qt::CaseSensitive, &n), QString("xx xx"));
    QCOMPARE(replaceAllInText("none", "x", "y", Qt::CaseSensitive, &n), QString("none"));
    QCOMPARE(n, 0);
}

void TestNotebookNav::headings()
{
    const QList<TocEntry> h =
        headingsIn("# Title\ntext\n## **Part** one ##\n   ### `code` three\n"
                   "####### seven\n#nospace\n    # indented code\n###### six\r\n#");
    QCOMPARE(h.size(), 4);
    QCOMPARE(h[0], (TocEntry{-1, 1, "Title"}));
    QCOMPARE(h[1], (TocEntry{-1, 2, "Part one"}));
    QCOMPARE(h[2], (TocEntry{-1, 3, "code three"}));
    QCOMPARE(h[3], (TocEntry{-1, 6, "six"}));
}

void TestNotebookNav::headingsSkipCodeFences()
{
    const QList<TocEntry> h =
        headingsIn("# A\n```python\n# a comment\n```\n~~~~\n# no\n~~~\n# still no\n~~~~\n## B");
    QCOMPARE(h.size(), 2);
    QCOMPARE(h[0].title, QString("A"));
    QCOMPARE(h[1].title, QString("B"));
}

void TestNotebookNav::tableOfContentsOfDocument()
{
    NotebookDocument doc;
    doc.insertCell(0, CellType::Markdown, "# Intro");
    doc.insertCell(1, CellType::Code, "# not a heading: code");
    doc.insertCell(2, CellType::Markdown, "## Method\ntext\n### Detail");
    const QList<TocEntry> toc = tableOfContents(doc);
    QCOMPARE(toc.size(), 3);
    QCOMPARE(toc[0], (TocEntry{0, 1, "Intro"}));
    QCOMPARE(toc[1], (TocEntry{2, 2, "Method"}));
    QCOMPARE(toc[2], (TocEntry{2, 3, "Detail"}));
}

void TestNotebookNav::watcherSaysOnceForABurst()
{
    NotebookDocument doc;
    doc.insertCell(0, CellType::Markdown, "# A");
    DocumentWatcher watcher(&doc, 50);
    QSignalSpy changed(&watcher, &DocumentWatcher::changed);
    for (int i = 0; i < 20; ++i)
        doc.cell(0)->setSource(QString("# A%1").arg(i));
    QTRY_COMPARE(changed.size(), 1);
    QTest::qWait(120);
    QCOMPARE(changed.size(), 1);
    // Inserted cells are watched; removed ones are not, until undo brings them back.
    Cell* added = doc.insertCell(1, CellType::Code);
    QTRY_COMPARE(changed.size(), 2);
    added->appendOutput(StreamOutput{"stdout", "x", std::nullopt});
    QTRY_COMPARE(changed.size(), 3);
    doc.removeCell(1);
    QTRY_COMPARE(changed.size(), 4);
    added->setSource("gone");
    QTest::qWait(120);
    QCOMPARE(changed.size(), 4);
    doc.undoRemove();
    QTRY_COMPARE(changed.size(), 5);
    doc.cell(1)->setSource("back");
    QTRY_COMPARE(changed.size(), 6);
}

void TestNotebookNav::bigNotebookTiming()
{
    // 2,000 cells, each with a dozen lines of code and a stream output: what find costs in the
    // find bar's worker thread. Printed for the report; the bound is loose (shared machines).
    NotebookData data;
    for (int i = 0; i < 2000; ++i) {
        CellData cell;
        cell.source = QString("import numpy as np\nvalues_%1 = np.arange(%1)\n").arg(i).repeated(6);
        cell.outputs.push_back(StreamOutput{
            "stdout", QString("step %1 loss 0.%1\n").arg(i).repeated(20), std::nullopt});
        data.cells.push_back(cell);
    }
    QElapsedTimer t;
    t.start();
    const QList<SearchMatch> m = findInNotebook(data, "values_1", Qt::CaseInsensitive);
    const qint64 ms = t.elapsed();
    QVERIFY(m.size() > 2000);
    qInfo("find in 2000 cells: %lld ms, %lld matches", ms, qint64(m.size()));
    QVERIFY2(ms < 2000, qPrintable(QString::number(ms)));
}

QTEST_GUILESS_MAIN(TestNotebookNav)
#include "tst_notebooknav.moc"
