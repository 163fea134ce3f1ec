// Autosave in the background (RecoveryWatcher): the UI thread takes a snapshot, a worker writes
// it. Many quick edits end with the latest state on disk and no copy ever goes back to an older
// state; a save or a close while a write runs leaves no copy behind; a watcher (or the whole
// notebook) destroyed while it writes does not crash and leaves the latest state.

#include "notebook/ipynbreader.h"
#include "notebook/ipynbwriter.h"
#include "notebook/recoverywatcher.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

using namespace lizard::notebook;

class TestAutosave : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void snapshotSharesOutputs();
    void latestAfterManyQuickEdits();
    void saveWhileWriting();
    void closeWhileWriting();
    void destroyedWhileWriting();

private:
    struct Open
    {
        NotebookDocument doc;
        NotebookFile file{&doc};
    };
    // A saved notebook with `megabytes` of image-like outputs over 20 cells, opened.
    void openNotebook(Open& open, int megabytes);
    RecoveryStore store() const { return RecoveryStore(m_dir->filePath("recovery")); }
    // The edit number in the copy on disk (cell 0's source is "edit N"), -1 if none.
    int editOnDisk() const;

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestAutosave::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestAutosave::openNotebook(Open& open, int megabytes)
{
    NotebookData nb;
    const std::string image((std::size_t(megabytes) << 20) / 20, 'A');
    for (int i = 0; i < 20; ++i) {
        CellData c;
        c.source = QStringLiteral("edit 0");
        RichOutput r;
        r.data = {{"image/png", image}, {"text/plain", "<Figure>"}};
        c.outputs.push_back(r);
        nb.cells.push_back(c);
    }
    const QString path = m_dir->filePath("big.ipynb");
    QVERIFY(!IpynbWriter::writeFile(path, nb));
    QVERIFY(!open.file.open(path));
}

int TestAutosave::editOnDisk() const
{
    const auto entries = store().entries();
    if (entries.empty())
        return -1;
    const Expected<NotebookData> copy = store().load(entries[0]);
    if (!copy)
        return -2;
    return copy.value().cells[0].source.section(' ', 1).toInt();
}

void TestAutosave::snapshotSharesOutputs()
{
    Open nb;
    openNotebook(nb, 20);
    const NotebookData before = nb.doc.toData();
    // The snapshot points at the same outputs: no copy of the 20 MB was made.
    QCOMPARE(&before.cells[3].outputs[0], &nb.doc.cell(3)->outputs()[0]);
    // Changing the document afterwards leaves the snapshot as it was.
    nb.doc.cell(3)->setOutput(0, StreamOutput{"stdout", "replaced"});
    nb.doc.cell(4)->appendOutput(StreamOutput{"stdout", "more"});
    QVERIFY(std::holds_alternative<RichOutput>(before.cells[3].outputs[0]));
    QCOMPARE(before.cells[4].outputs.size(), std::size_t(1));
}

void TestAutosave::latestAfterManyQuickEdits()
{
    Open nb;
    openNotebook(nb, 20); // each write takes tens of milliseconds: edits land during writes
    RecoveryWatcher watcher(store(), &nb.file);
    watcher.setInterval(1);
    QList<int> seen; // what was on disk each time a write was reported
    connect(&watcher, &RecoveryWatcher::written, this, [&] { seen << editOnDisk(); });
    QSignalSpy failed(&watcher, &RecoveryWatcher::writeFailed);
    constexpr int edits = 300;
    for (int i = 1; i <= edits; ++i) {
        nb.doc.cell(0)->setSource(QStringLiteral("edit %1").arg(i));
        QCoreApplication::processEvents();
        if (i % 50 == 0)
            QTest::qWait(5);
    }
    QTRY_VERIFY_WITH_TIMEOUT(!seen.isEmpty() && seen.last() == edits, 20000);
    QVERIFY(watcher.waitForWrites());
    QCOMPARE(failed.size(), 0);
    QCOMPARE(editOnDisk(), edits);
    qInfo("%lld writes for %d edits; last snapshot took %.3f ms", qint64(seen.size()), edits,
          watcher.lastSnapshotNs() / 1e6);
    QVERIFY(seen.size() < edits); // coalesced, not one write per edit
    for (int i = 1; i < seen.size(); ++i)
        QVERIFY2(seen[i] > seen[i - 1], "a copy went back to an older state");
    watcher.close();
}

void TestAutosave::saveWhileWriting()
{
    Open nb;
    openNotebook(nb, 20);
    RecoveryWatcher watcher(store(), &nb.file);
    nb.doc.cell(0)->setSource("edit 1");
    watcher.flush();
    QVERIFY(watcher.isWriting());
    QVERIFY(!nb.file.save()); // clean again while the copy is still being written
    RecoveryWatcher::waitForIdle();
    QVERIFY(watcher.waitForWrites());
    QVERIFY(store().entries().empty());
    QVERIFY(QDir(store().directory()).entryList(QDir::Files).isEmpty());
    // Editing again writes a new copy.
    nb.doc.cell(0)->setSource("edit 2");
    watcher.flush();
    QVERIFY(watcher.waitForWrites());
    QCOMPARE(editOnDisk(), 2);
    watcher.close();
}

void TestAutosave::closeWhileWriting()
{
    Open nb;
    openNotebook(nb, 20);
    RecoveryWatcher watcher(store(), &nb.file);
    QSignalSpy written(&watcher, &RecoveryWatcher::written);
    nb.doc.cell(0)->setSource("edit 1");
    watcher.flush();
    QVERIFY(watcher.isWriting());
    watcher.close(); // the user closed the notebook on purpose: no copy may remain
    RecoveryWatcher::waitForIdle();
    QVERIFY(watcher.waitForWrites());
    QCOMPARE(written.size(), 0);
    QVERIFY(QDir(store().directory()).entryList(QDir::Files).isEmpty());
}

void TestAutosave::destroyedWhileWriting()
{
    {
        auto nb = std::make_unique<Open>();
        openNotebook(*nb, 20);
        auto watcher = std::make_unique<RecoveryWatcher>(store(), &nb->file);
        nb->doc.cell(0)->setSource("edit 1");
        watcher->flush();
        QVERIFY(watcher->isWriting());
        nb->doc.cell(0)->setSource("edit 2"); // made during the write
        // The app goes away (no close): the watcher, then the document, while the write runs.
        watcher.reset();
        nb.reset();
    }
    RecoveryWatcher::waitForIdle();
    QCOMPARE(editOnDisk(), 2); // the latest state, not the one being written when it went
}

QTEST_MAIN(TestAutosave)
#include "tst_autosave.moc"
