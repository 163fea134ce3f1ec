// Opening and saving: a notebook file that fails to load leaves the document untouched, says
// which file and what is wrong, and is never written over except by an explicit Save As.

#include "nbformatpython.h"
#include "notebook/ipynbreader.h"
#include "notebook/ipynbwriter.h"
#include "notebook/notebookfile.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lizard::notebook;
using namespace lizard::notebook::test;

namespace {

QByteArray readBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

NotebookData twoCells()
{
    NotebookData nb;
    nb.metadata = {{"kernelspec", {{"name", "python3"}, {"display_name", "Python 3"}}}};
    CellData a;
    a.source = "print(1)";
    a.executionCount = 1;
    a.outputs.push_back(StreamOutput{"stdout", "1\n"});
    CellData b;
    b.type = CellType::Markdown;
    b.source = "notes";
    nb.cells = {a, b};
    return nb;
}

QStringList cellSources(const NotebookDocument& doc)
{
    QStringList out;
    for (int i = 0; i < doc.cellCount(); ++i)
        out << doc.cell(i)->source();
    return out;
}

} // namespace

class TestNotebookFile : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void openEditSave();
    void brokenFileIsNeitherLoadedNorOverwritten_data();
    void brokenFileIsNeitherLoadedNorOverwritten();
    void saveFailureKeepsDirty();
    void untitledNeedsSaveAs();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestNotebookFile::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestNotebookFile::openEditSave()
{
    const QString path = m_dir->filePath("a.ipynb");
    QVERIFY(!IpynbWriter::writeFile(path, twoCells()));
    NotebookDocument doc;
    NotebookFile file(&doc);
    QSignalSpy pathSpy(&file, &NotebookFile::pathChanged);
    QCOMPARE(file.open(path), std::nullopt);
    QCOMPARE(file.path(), path);
    QCOMPARE(pathSpy.size(), 1);
    QVERIFY(!file.loadFailed());
    QCOMPARE(cellSources(doc), (QStringList{"print(1)", "notes"}));
    QVERIFY(!doc.isDirty());

    doc.cell(1)->setSource("more notes");
    doc.insertCell(2, CellType::Code, "x = 2");
    QVERIFY(doc.isDirty());
    QSignalSpy dirty(&doc, &NotebookDocument::dirtyChanged);
    QSignalSpy saved(&file, &NotebookFile::saved);
    const MaybeError error = file.save();
    QVERIFY2(!error, error ? qPrintable(error->message()) : "");
    QVERIFY(!doc.isDirty());
    QCOMPARE(dirty.size(), 1);
    QCOMPARE(saved.size(), 1);
    // Written atomically: no temporary files left next to it.
    QCOMPARE(QDir(m_dir->path()).entryList(QDir::Files), QStringList{"a.ipynb"});

    const Expected<NotebookData> back = IpynbReader::readFile(path);
    QVERIFY(back.ok());
    QCOMPARE(back.value().cells.size(), std::size_t(3));
    QCOMPARE(back.value().cells[1].source, QString("more notes"));
    QVERIFY(back.value().cells[0] == doc.cell(0)->data());
    if (!nbformatPython().isEmpty()) {
        const PythonRun run = validateWithNbformat(path);
        QVERIFY2(run.ok, qPrintable(run.output));
    }
}

void TestNotebookFile::brokenFileIsNeitherLoadedNorOverwritten_data()
{
    QTest::addColumn<QByteArray>("bytes"); // null: the file does not exist
    QTest::addColumn<QString>("what");
    const QByteArray good = IpynbWriter::serialize(twoCells());
    QTest::newRow("invalid JSON") << QByteArray("{\"nbformat\": 4, \"cells\": [,]}")
                                  << "not valid JSON";
    QTest::newRow("nbformat 3")
        << QByteArray(
               R"({"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [{"cells": []}]})")
        << "nbformat 3 is not supported";
    QTest::newRow("cells not a list")
        << QByteArray(R"({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": "none"})")
        << "expected a list, found a string";
    QTest::newRow("truncated file") << good.left(good.size() - 40) << "truncated";
    QTest::newRow("missing file") << QByteArray() << "cannot open";
}

void TestNotebookFile::brokenFileIsNeitherLoadedNorOverwritten()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, what);
    const QString good = m_dir->filePath("good.ipynb");
    const QString broken = m_dir->filePath("broken.ipynb");
    QVERIFY(!IpynbWriter::writeFile(good, twoCells()));
    if (!bytes.isNull())
        writeBytes(broken, bytes);

    NotebookDocument doc;
    NotebookFile file(&doc);
    QVERIFY(!file.open(good));
    doc.cell(0)->setSource("unsaved edit");
    QSignalSpy reset(&doc, &NotebookDocument::documentReset);
    QSignalSpy dirty(&doc, &NotebookDocument::dirtyChanged);

    const MaybeError error = file.open(broken);
    QVERIFY(error);
    QCOMPARE(error->file, broken);
    QVERIFY2(error->message().contains(what), qPrintable(error->message()));
    QVERIFY2(error->message().startsWith(broken + ": "), qPrintable(error->message()));
    // The document is exactly as it was, unsaved edit included.
    QCOMPARE(reset.size(), 0);
    QCOMPARE(dirty.size(), 0);
    QVERIFY(doc.isDirty());
    QCOMPARE(cellSources(doc), (QStringList{"unsaved edit", "notes"}));
    QCOMPARE(doc.cell(0)->outputs().size(), std::size_t(1));
    QVERIFY(file.loadFailed());
    QCOMPARE(file.path(), broken);

    // Save refuses to write over the file that did not load.
    const MaybeError refused = file.save();
    QVERIFY(refused);
    QVERIFY2(refused->message().contains("Save As"), qPrintable(refused->message()));
    QCOMPARE(readBytes(broken), bytes);
    QCOMPARE(QFile::exists(broken), !bytes.isNull());
    QVERIFY(doc.isDirty());

    // Save As somewhere else works, and so does Save As onto it when the user chooses so.
    const QString other = m_dir->filePath("other.ipynb");
    QVERIFY(!file.saveAs(other));
    QCOMPARE(readBytes(broken), bytes);
    QVERIFY(!doc.isDirty());
    QVERIFY(!file.loadFailed());
    QCOMPARE(file.path(), other);
    QVERIFY(IpynbReader::readFile(other).ok());
    QVERIFY(!file.saveAs(broken));
    const Expected<NotebookData> now = IpynbReader::readFile(broken);
    QVERIFY(now.ok());
    QCOMPARE(now.value().cells[0].source, QString("unsaved edit"));
}

void TestNotebookFile::saveFailureKeepsDirty()
{
    NotebookDocument doc;
    NotebookFile file(&doc);
    doc.insertCell(0, CellType::Code, "x");
    const QString nowhere = m_dir->filePath("no/such/dir/x.ipynb");
    const MaybeError error = file.saveAs(nowhere);
    QVERIFY(error);
    QVERIFY2(error->message().contains("cannot write"), qPrintable(error->message()));
    QVERIFY(doc.isDirty());
    QVERIFY(file.path().isEmpty());
}

void TestNotebookFile::untitledNeedsSaveAs()
{
    NotebookDocument doc;
    NotebookFile file(&doc);
    doc.insertCell(0, CellType::Markdown, "# New");
    const MaybeError error = file.save();
    QVERIFY(error);
    QVERIFY(error->message().contains("Save As"));
    QVERIFY(doc.isDirty());
    QVERIFY(!file.saveAs(m_dir->filePath("new.ipynb")));
    QVERIFY(!doc.isDirty());
    doc.cell(0)->setSource("# Renamed");
    QVERIFY(!file.save());
    QCOMPARE(IpynbReader::readFile(m_dir->filePath("new.ipynb")).value().cells[0].source,
             QString("# Renamed"));
}

QTEST_GUILESS_MAIN(TestNotebookFile)
#include "tst_notebookfile.moc"
