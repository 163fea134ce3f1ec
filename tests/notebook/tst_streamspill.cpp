// Stream outputs that outgrow memory go to a spill file: the cell keeps a bounded head and tail
// whatever is printed, and the whole text (StreamText, a saved .ipynb) still has every byte. The
// file goes when the outputs are cleared or the notebook closes, not while a copy still reads it.

#include "nbformatpython.h"
#include "notebook/ipynbreader.h"
#include "notebook/ipynbwriter.h"
#include "notebook/notebookfile.h"
#include "notebook/spillfile.h"
#include "notebook/streamtext.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace lizard::notebook;

class TestStreamSpill : public QObject
{
    Q_OBJECT
private slots:
    void smallStreamStaysInMemory();
    void twentyMegabytesStayBounded();
    void everyByteInSavedNotebook();
    void unicodeAndLongLines();
    void fileGoesWithTheOutputs();
    void copiesDiverge();
    void openedHugeOutputSpills();
    void cellByCellLayoutIsOneDump();

private:
    // Prints `bytes` of numbered ASCII lines into the cell in runner-sized chunks; returns the
    // whole text's SHA-1 and checks the in-memory size after every chunk.
    QByteArray print(Cell& cell, qint64 bytes, qint64* maxMemory);
};

QByteArray TestStreamSpill::print(Cell& cell, qint64 bytes, qint64* maxMemory)
{
    QCryptographicHash hash(QCryptographicHash::Sha1);
    qint64 written = 0;
    qint64 line = 0;
    *maxMemory = 0;
    while (written < bytes) {
        QString chunk;
        while (chunk.size() < 8192)
            chunk += QStringLiteral("line %1 of a long stream output\n").arg(line++);
        hash.addData(chunk.toUtf8());
        written += chunk.size();
        cell.appendOutput(StreamOutput{"stdout", chunk});
        *maxMemory = qMax(*maxMemory, cell.outputMemoryBytes());
    }
    return hash.result();
}

void TestStreamSpill::smallStreamStaysInMemory()
{
    Cell cell(CellData{});
    qint64 peak = 0;
    print(cell, 1 << 20, &peak);
    const auto& s = std::get<StreamOutput>(cell.outputs().at(0));
    QVERIFY(!s.spilled);
    QVERIFY(peak >= 2 << 20); // a MiB of text is two in UTF-16
}

void TestStreamSpill::twentyMegabytesStayBounded()
{
    Cell cell(CellData{});
    qint64 peak = 0;
    const QByteArray sha = print(cell, 20 << 20, &peak);
    QCOMPARE(cell.outputs().size(), std::size_t(1));
    const auto& s = std::get<StreamOutput>(cell.outputs().at(0));
    QVERIFY(s.spilled);
    // Never more than the spill threshold plus a little, and after it much less.
    const qint64 bound = 2 * StreamOutput::spillThresholdChars + (1 << 20);
    QVERIFY2(peak <= bound, qPrintable(QString::number(peak)));
    const qint64 after = 2 * (StreamOutput::headChars + 2 * StreamOutput::tailChars) + 4096;
    QVERIFY2(cell.outputMemoryBytes() <= after,
             qPrintable(QString::number(cell.outputMemoryBytes())));
    QVERIFY(streamLength(s) >= 20 << 20);
    QVERIFY(s.spilled->head.startsWith("line 0 of"));
    QVERIFY(s.text.endsWith("of a long stream output\n"));
    // Every byte can be read back.
    const StreamText whole(s);
    QCOMPARE(whole.size(), s.spilled->bytes);
    QCryptographicHash hash(QCryptographicHash::Sha1);
    QString error;
    for (qint64 at = 0; at < whole.size(); at += StreamText::chunkBytes)
        hash.addData(whole.read(at, StreamText::chunkBytes, &error));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(hash.result(), sha);
}

void TestStreamSpill::everyByteInSavedNotebook()
{
    NotebookDocument doc;
    Cell* cell = doc.insertCell(0, CellType::Code, "for i in ...: print(i)");
    qint64 peak = 0;
    const QByteArray sha = print(*cell, 20 << 20, &peak);
    cell->appendOutput(
        RichOutput{RichOutput::Kind::ExecuteResult, {{"text/plain", "42"}}, {}, 1, {}});
    cell->appendOutput(StreamOutput{"stderr", "after\n"});
    QVERIFY(std::get<StreamOutput>(cell->outputs().at(0)).spilled);
    QTemporaryDir dir;
    NotebookFile file(&doc);
    QVERIFY(!file.saveAs(dir.filePath("big.ipynb")));

    const Expected<NotebookData> back = IpynbReader::readFile(dir.filePath("big.ipynb"));
    QVERIFY2(back.ok(), back.ok() ? "" : qPrintable(back.error().message()));
    const CellData& c = back.value().cells.at(0);
    QCOMPARE(c.outputs.size(), std::size_t(3));
    const auto& s = std::get<StreamOutput>(c.outputs.at(0));
    QCOMPARE(QCryptographicHash::hash(s.text.toUtf8(), QCryptographicHash::Sha1), sha);
    QCOMPARE(std::get<RichOutput>(c.outputs.at(1)).text("text/plain"), QString("42"));
    QCOMPARE(std::get<StreamOutput>(c.outputs.at(2)).text, QString("after\n"));
    // Jupyter's own reader and validator accept it, when they are installed.
    if (!lizard::notebook::test::nbformatPython().isEmpty()) {
        const lizard::notebook::test::PythonRun v =
            lizard::notebook::test::validateWithNbformat(dir.filePath("big.ipynb"));
        QVERIFY2(v.ok, qPrintable(v.output));
    }
}

void TestStreamSpill::unicodeAndLongLines()
{
    // Multi-byte characters, characters JSON escapes, and one 6 MB line with no newline.
    QString expected;
    Cell cell(CellData{});
    const QString piece = QStringLiteral("żółw 🦎 \"quoted\" \\ tab\t bell\x07 ");
    while (expected.size() < 6 * 1024 * 1024) {
        QString chunk;
        while (chunk.size() < 8000)
            chunk += piece;
        expected += chunk;
        cell.appendOutput(StreamOutput{"stdout", chunk});
    }
    const auto& s = std::get<StreamOutput>(cell.outputs().at(0));
    QVERIFY(s.spilled);
    QString error;
    QCOMPARE(StreamText(s).readAll(&error), expected);

    NotebookData nb;
    CellData c;
    c.outputs.push_back(s);
    nb.cells.push_back(c);
    QTemporaryDir dir;
    QVERIFY(!IpynbWriter::writeFile(dir.filePath("u.ipynb"), nb));
    const Expected<NotebookData> back = IpynbReader::readFile(dir.filePath("u.ipynb"));
    QVERIFY(back.ok());
    QCOMPARE(std::get<StreamOutput>(back.value().cells[0].outputs.at(0)).text, expected);
    // The writer's own tree (toJson) reads the whole text too.
    const nlohmann::json tree = IpynbWriter::toJson(nb);
    std::string joined;
    for (const auto& line : tree["cells"][0]["outputs"][0]["text"])
        joined += line.get<std::string>();
    QCOMPARE(QString::fromStdString(joined), expected);
}

void TestStreamSpill::fileGoesWithTheOutputs()
{
    NotebookDocument doc;
    Cell* cell = doc.insertCell(0, CellType::Code);
    qint64 peak = 0;
    print(*cell, 5 << 20, &peak);
    const QString path = std::get<StreamOutput>(cell->outputs().at(0)).spilled->file->path();
    QVERIFY(path.startsWith(SpillFile::directory()));
    QVERIFY(QFile::exists(path));
    QCOMPARE(QFile::permissions(path) & (QFile::ReadGroup | QFile::ReadOther),
             QFile::Permissions());

    // A snapshot (autosave) or an open viewer still reads it after the outputs are cleared.
    NotebookData snapshot = doc.toData();
    cell->clearOutputs();
    QVERIFY(QFile::exists(path));
    QString error;
    QVERIFY(StreamText(std::get<StreamOutput>(snapshot.cells[0].outputs.at(0))).size() >= 5 << 20);
    snapshot = {};
    QVERIFY(!QFile::exists(path));

    // Closing the notebook removes it as well.
    {
        NotebookDocument closing;
        Cell* c = closing.insertCell(0, CellType::Code);
        print(*c, 5 << 20, &peak);
        const QString other = std::get<StreamOutput>(c->outputs().at(0)).spilled->file->path();
        QVERIFY(QFile::exists(other));
        closing.reset(NotebookData{});
        QVERIFY(!QFile::exists(other));
    }
}

void TestStreamSpill::copiesDiverge()
{
    // A forked notebook starts from a copy of the outputs; both go on printing.
    NotebookDocument a;
    Cell* ca = a.insertCell(0, CellType::Code);
    qint64 peak = 0;
    print(*ca, 5 << 20, &peak);
    NotebookDocument b;
    b.reset(a.toData(), true);
    Cell* cb = b.cell(0);
    ca->appendOutput(StreamOutput{"stdout", "only in a\n"});
    cb->appendOutput(StreamOutput{"stdout", "only in b\n"});
    ca->appendOutput(StreamOutput{"stdout", "a again\n"});
    QString error;
    const QString wa = StreamText(std::get<StreamOutput>(ca->outputs().at(0))).readAll(&error);
    const QString wb = StreamText(std::get<StreamOutput>(cb->outputs().at(0))).readAll(&error);
    QVERIFY(wa.endsWith("of a long stream output\nonly in a\na again\n"));
    QVERIFY(wb.endsWith("of a long stream output\nonly in b\n"));
    QCOMPARE(wa.size() - 18, wb.size() - 10);
}

void TestStreamSpill::openedHugeOutputSpills()
{
    NotebookData nb;
    CellData c;
    c.outputs.push_back(StreamOutput{"stdout", QString(5 << 20, u'x') + "\nend\n"});
    nb.cells.push_back(c);
    NotebookDocument doc;
    doc.reset(nb);
    const auto& s = std::get<StreamOutput>(doc.cell(0)->outputs().at(0));
    QVERIFY(s.spilled);
    QVERIFY(doc.cell(0)->outputMemoryBytes() < 2 << 20);
    QString error;
    QCOMPARE(StreamText(s).readAll(&error), std::get<StreamOutput>(nb.cells[0].outputs.at(0)).text);
}

void TestStreamSpill::cellByCellLayoutIsOneDump()
{
    // The writer goes a cell at a time; the bytes are those of one dump of the whole tree.
    for (int cells : {0, 1, 3}) {
        NotebookData nb;
        nb.metadata = {{"kernelspec", {{"name", "python3"}}}, {"x", {1, 2}}};
        for (int i = 0; i < cells; ++i) {
            CellData c;
            c.id = QStringLiteral("cell-%1").arg(i);
            c.source = QStringLiteral("a\nb %1").arg(i);
            c.outputs.push_back(StreamOutput{"stdout", "one\ntwo\n"});
            c.outputs.push_back(
                RichOutput{RichOutput::Kind::DisplayData, {{"text/plain", "t"}}, {}, {}, {}});
            nb.cells.push_back(c);
        }
        const QByteArray one = QByteArray::fromStdString(IpynbWriter::toJson(nb).dump(1)) + '\n';
        QCOMPARE(IpynbWriter::serialize(nb), one);
    }
}

QTEST_MAIN(TestStreamSpill)
#include "tst_streamspill.moc"
