// The notebook document as a plain model: insert, move, delete and undo, type changes, ids,
// dirty tracking and the signals a view relies on.

#include "notebook/notebookdocument.h"

#include <QSignalSpy>
#include <QTest>

using namespace lizard::notebook;

namespace {

// Builds a document with cells whose sources are the given strings (code cells), clean.
void fill(NotebookDocument& doc, const QStringList& sources)
{
    NotebookData data;
    for (const QString& s : sources) {
        CellData c;
        c.source = s;
        data.cells.push_back(c);
    }
    doc.reset(data);
}

QStringList sources(const NotebookDocument& doc)
{
    QStringList out;
    for (int i = 0; i < doc.cellCount(); ++i)
        out << doc.cell(i)->source();
    return out;
}

} // namespace

class TestNotebookDocument : public QObject
{
    Q_OBJECT
private slots:
    void insertCell_data();
    void insertCell();
    void moveCell_data();
    void moveCell();
    void removeAndUndoRestoresCellWithOutputs();
    void undoIsAStack();
    void undoRestoresAtTheOldIndex();
    void changeType();
    void edits_data();
    void edits();
    void statusIsNotAnEdit();
    void cleanAfterSaveAndResetDropsUndo();
    void idsAreValidAndUnique();
};

void TestNotebookDocument::insertCell_data()
{
    QTest::addColumn<int>("index");
    QTest::addColumn<int>("expectedIndex");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("front") << 0 << 0 << QStringList{"new", "a", "b"};
    QTest::newRow("middle") << 1 << 1 << QStringList{"a", "new", "b"};
    QTest::newRow("end") << 2 << 2 << QStringList{"a", "b", "new"};
    QTest::newRow("past end is clamped") << 99 << 2 << QStringList{"a", "b", "new"};
    QTest::newRow("negative is clamped") << -5 << 0 << QStringList{"new", "a", "b"};
}

void TestNotebookDocument::insertCell()
{
    QFETCH(int, index);
    QFETCH(int, expectedIndex);
    QFETCH(QStringList, expected);
    NotebookDocument doc;
    fill(doc, {"a", "b"});
    QSignalSpy inserted(&doc, &NotebookDocument::cellInserted);
    QSignalSpy dirty(&doc, &NotebookDocument::dirtyChanged);

    Cell* c = doc.insertCell(index, CellType::Markdown, "new");
    QVERIFY(c);
    QCOMPARE(c->type(), CellType::Markdown);
    QCOMPARE(sources(doc), expected);
    QCOMPARE(doc.indexOf(c), expectedIndex);
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(inserted.at(0).at(0).toInt(), expectedIndex);
    QCOMPARE(dirty.size(), 1);
    QCOMPARE(dirty.at(0).at(0).toBool(), true);
    QVERIFY(doc.isDirty());
}

void TestNotebookDocument::moveCell_data()
{
    QTest::addColumn<int>("from");
    QTest::addColumn<int>("to");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("down") << 0 << 2 << true << QStringList{"b", "c", "a", "d"};
    QTest::newRow("up") << 3 << 1 << true << QStringList{"a", "d", "b", "c"};
    QTest::newRow("to last") << 1 << 3 << true << QStringList{"a", "c", "d", "b"};
    QTest::newRow("from out of range") << 4 << 0 << false << QStringList{"a", "b", "c", "d"};
    QTest::newRow("to out of range") << 0 << 4 << false << QStringList{"a", "b", "c", "d"};
    QTest::newRow("negative") << -1 << 0 << false << QStringList{"a", "b", "c", "d"};
}

void TestNotebookDocument::moveCell()
{
    QFETCH(int, from);
    QFETCH(int, to);
    QFETCH(bool, ok);
    QFETCH(QStringList, expected);
    NotebookDocument doc;
    fill(doc, {"a", "b", "c", "d"});
    QSignalSpy moved(&doc, &NotebookDocument::cellMoved);

    QCOMPARE(doc.moveCell(from, to), ok);
    QCOMPARE(sources(doc), expected);
    QCOMPARE(doc.isDirty(), ok);
    QCOMPARE(moved.size(), ok ? 1 : 0);
    if (ok) {
        QCOMPARE(moved.at(0).at(0).toInt(), from);
        QCOMPARE(moved.at(0).at(1).toInt(), to);
    }
}

void TestNotebookDocument::removeAndUndoRestoresCellWithOutputs()
{
    NotebookDocument doc;
    fill(doc, {"a", "b", "c"});
    Cell* b = doc.cell(1);
    b->appendOutput(StreamOutput{"stdout", "hello\n"});
    b->appendOutput(ErrorOutput{"ValueError", "bad", {"\x1b[31mValueError\x1b[0m: bad"}});
    b->setExecutionCount(7);
    b->setMetadata({{"tags", {"keep"}}});
    const QString id = b->id();
    QSignalSpy removed(&doc, &NotebookDocument::cellRemoved);
    QSignalSpy inserted(&doc, &NotebookDocument::cellInserted);

    QVERIFY(!doc.canUndoRemove());
    QVERIFY(doc.removeCell(1));
    QCOMPARE(sources(doc), (QStringList{"a", "c"}));
    QCOMPARE(removed.size(), 1);
    QCOMPARE(removed.at(0).at(0).toInt(), 1);
    QCOMPARE(removed.at(0).at(1).value<Cell*>(), b);
    QCOMPARE(doc.indexOf(b), -1);
    QVERIFY(!doc.cellById(id));
    QVERIFY(doc.canUndoRemove());
    QVERIFY(!doc.removeCell(5));

    Cell* restored = doc.undoRemove();
    QCOMPARE(restored, b);
    QCOMPARE(sources(doc), (QStringList{"a", "b", "c"}));
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(inserted.at(0).at(0).toInt(), 1);
    QCOMPARE(restored->id(), id);
    QCOMPARE(restored->outputs().size(), std::size_t(2));
    QCOMPARE(std::get<StreamOutput>(restored->outputs()[0]).text, QString("hello\n"));
    QCOMPARE(std::get<ErrorOutput>(restored->outputs()[1]).ename, QString("ValueError"));
    QCOMPARE(restored->executionCount(), std::optional<int>(7));
    QVERIFY(restored->metadata().at("tags").at(0) == "keep");
    QVERIFY(!doc.canUndoRemove());
    QCOMPARE(doc.undoRemove(), nullptr);

    // A restored cell counts as part of the document again: its edits make it dirty.
    doc.setClean();
    restored->setSource("b2");
    QVERIFY(doc.isDirty());
}

void TestNotebookDocument::undoIsAStack()
{
    NotebookDocument doc;
    fill(doc, {"a", "b", "c", "d"});
    QVERIFY(doc.removeCell(0)); // a
    QVERIFY(doc.removeCell(2)); // d (list was b c d)
    QVERIFY(doc.removeCell(0)); // b
    QCOMPARE(sources(doc), QStringList{"c"});
    QCOMPARE(doc.undoRemove()->source(), QString("b"));
    QCOMPARE(sources(doc), (QStringList{"b", "c"}));
    QCOMPARE(doc.undoRemove()->source(), QString("d"));
    QCOMPARE(sources(doc), (QStringList{"b", "c", "d"}));
    QCOMPARE(doc.undoRemove()->source(), QString("a"));
    QCOMPARE(sources(doc), (QStringList{"a", "b", "c", "d"}));
}

void TestNotebookDocument::undoRestoresAtTheOldIndex()
{
    NotebookDocument doc;
    fill(doc, {"a", "b", "c"});
    QVERIFY(doc.removeCell(2)); // c from 2
    QVERIFY(doc.removeCell(0)); // a from 0
    QVERIFY(doc.removeCell(0)); // b from 0
    QCOMPARE(doc.cellCount(), 0);
    doc.insertCell(0, CellType::Code, "x");
    QCOMPARE(doc.undoRemove()->source(), QString("b"));
    QCOMPARE(sources(doc), (QStringList{"b", "x"}));
    QCOMPARE(doc.undoRemove()->source(), QString("a"));
    QCOMPARE(sources(doc), (QStringList{"a", "b", "x"}));
    QCOMPARE(doc.undoRemove()->source(), QString("c"));
    QCOMPARE(sources(doc), (QStringList{"a", "b", "c", "x"}));
}

void TestNotebookDocument::changeType()
{
    NotebookDocument doc;
    fill(doc, {"print(1)"});
    Cell* c = doc.cell(0);
    c->appendOutput(StreamOutput{"stdout", "1\n"});
    c->setExecutionCount(3);
    c->setStatus(CellStatus::Done);
    doc.setClean();
    QSignalSpy typeSpy(c, &Cell::typeChanged);
    QSignalSpy cleared(c, &Cell::outputsCleared);
    QSignalSpy count(c, &Cell::executionCountChanged);
    QSignalSpy status(c, &Cell::statusChanged);

    c->setType(CellType::Markdown);
    QCOMPARE(c->type(), CellType::Markdown);
    QCOMPARE(typeSpy.size(), 1);
    QCOMPARE(typeSpy.at(0).at(0).value<CellType>(), CellType::Markdown);
    QCOMPARE(cleared.size(), 1);
    QCOMPARE(count.size(), 1);
    QVERIFY(c->outputs().empty());
    QCOMPARE(c->executionCount(), std::nullopt);
    QCOMPARE(c->status(), CellStatus::Idle);
    QCOMPARE(status.size(), 1);
    QCOMPARE(c->source(), QString("print(1)"));
    QVERIFY(doc.isDirty());

    // Markdown cells keep no outputs.
    c->appendOutput(StreamOutput{"stdout", "x"});
    QVERIFY(c->outputs().empty());

    // Same type again: nothing happens.
    c->setType(CellType::Markdown);
    QCOMPARE(typeSpy.size(), 1);

    c->setType(CellType::Code);
    QCOMPARE(typeSpy.size(), 2);
    c->appendOutput(StreamOutput{"stdout", "x"});
    QCOMPARE(c->outputs().size(), std::size_t(1));
}

void TestNotebookDocument::edits_data()
{
    QTest::addColumn<int>("edit");
    const char* names[] = {"source",
                           "type",
                           "output",
                           "clear outputs",
                           "execution count",
                           "cell metadata",
                           "notebook metadata",
                           "insert",
                           "remove",
                           "move",
                           "undo"};
    for (int i = 0; i < int(std::size(names)); ++i)
        QTest::newRow(names[i]) << i;
}

void TestNotebookDocument::edits()
{
    QFETCH(int, edit);
    NotebookDocument doc;
    fill(doc, {"a", "b"});
    doc.cell(0)->appendOutput(StreamOutput{"stdout", "old"});
    doc.removeCell(1);
    doc.insertCell(1, CellType::Code, "b");
    doc.setClean();
    QVERIFY(!doc.isDirty());
    const quint64 before = doc.revision();
    QSignalSpy dirty(&doc, &NotebookDocument::dirtyChanged);
    Cell* c = doc.cell(0);

    switch (edit) {
    case 0:
        c->setSource("changed");
        break;
    case 1:
        c->setType(CellType::Raw);
        break;
    case 2:
        c->appendOutput(RichOutput{});
        break;
    case 3:
        c->clearOutputs();
        break;
    case 4:
        c->setExecutionCount(1);
        break;
    case 5:
        c->setMetadata({{"collapsed", true}});
        break;
    case 6:
        doc.setMetadata({{"kernelspec", {{"name", "python3"}}}});
        break;
    case 7:
        doc.insertCell(0, CellType::Code);
        break;
    case 8:
        doc.removeCell(0);
        break;
    case 9:
        doc.moveCell(0, 1);
        break;
    case 10:
        doc.undoRemove();
        break;
    }
    QVERIFY(doc.isDirty());
    QVERIFY(doc.revision() > before);
    QCOMPARE(dirty.size(), 1);
    QCOMPARE(dirty.at(0).at(0).toBool(), true);

    // Further edits keep it dirty without repeating the signal; a save cleans it once.
    c = doc.cell(0);
    c->setSource(c->source() + "!");
    QCOMPARE(dirty.size(), 1);
    doc.setClean();
    QCOMPARE(dirty.size(), 2);
    QCOMPARE(dirty.at(1).at(0).toBool(), false);
    doc.setClean();
    QCOMPARE(dirty.size(), 2);
}

void TestNotebookDocument::statusIsNotAnEdit()
{
    NotebookDocument doc;
    fill(doc, {"a"});
    QSignalSpy status(doc.cell(0), &Cell::statusChanged);
    doc.cell(0)->setStatus(CellStatus::Running);
    doc.cell(0)->setStatus(CellStatus::Running);
    QCOMPARE(status.size(), 1);
    QCOMPARE(status.at(0).at(0).value<CellStatus>(), CellStatus::Running);
    QVERIFY(!doc.isDirty());
    // Setting the same values is not an edit either.
    doc.cell(0)->setSource("a");
    doc.cell(0)->setType(CellType::Code);
    doc.cell(0)->clearOutputs();
    QVERIFY(!doc.isDirty());
}

void TestNotebookDocument::cleanAfterSaveAndResetDropsUndo()
{
    NotebookDocument doc;
    fill(doc, {"a", "b"});
    QVERIFY(!doc.isDirty());
    doc.removeCell(0);
    QVERIFY(doc.canUndoRemove());
    QSignalSpy reset(&doc, &NotebookDocument::documentReset);
    QSignalSpy dirty(&doc, &NotebookDocument::dirtyChanged);
    fill(doc, {"x"});
    QCOMPARE(reset.size(), 1);
    QCOMPARE(dirty.size(), 1);
    QVERIFY(!doc.isDirty());
    QVERIFY(!doc.canUndoRemove());
    QCOMPARE(sources(doc), QStringList{"x"});
}

void TestNotebookDocument::idsAreValidAndUnique()
{
    NotebookData data;
    for (const char* id : {"same", "same", "bad id!", "", "ok-1_2"}) {
        CellData c;
        c.id = QString::fromLatin1(id);
        data.cells.push_back(c);
    }
    NotebookDocument doc;
    doc.reset(data);
    QSet<QString> ids;
    for (int i = 0; i < doc.cellCount(); ++i) {
        QVERIFY2(isValidCellId(doc.cell(i)->id()), qPrintable(doc.cell(i)->id()));
        ids.insert(doc.cell(i)->id());
    }
    QCOMPARE(ids.size(), 5);
    QCOMPARE(doc.cell(0)->id(), QString("same")); // valid ids are kept
    QCOMPARE(doc.cell(4)->id(), QString("ok-1_2"));
    for (int i = 0; i < 50; ++i)
        ids.insert(doc.insertCell(0, CellType::Code)->id());
    QCOMPARE(ids.size(), 55);
}

QTEST_GUILESS_MAIN(TestNotebookDocument)
#include "tst_notebookdocument.moc"
