// Crash recovery: a dirty notebook is copied to the recovery directory every few seconds; the
// copy survives a crash (the next instance lists it and can load it) and disappears on a clean
// save or close.

#include "notebook/ipynbreader.h"
#include "notebook/ipynbwriter.h"
#include "notebook/recoverywatcher.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

using namespace lizard::notebook;

class TestRecoveryStore : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void writesWhileDirtyOnlyWhenChanged();
    void listedAfterCrash();
    void discard();
    void removedOnSave();
    void removedOnClose();
    void untitledNotebook();
    void defaultDirectoryFollowsXdgState();

private:
    struct Open
    {
        NotebookDocument doc;
        NotebookFile file{&doc};
    };
    // A saved notebook at <tmp>/work/name.ipynb, opened.
    void openNotebook(Open& open, const QString& name);
    RecoveryStore store() const { return RecoveryStore(m_dir->filePath("recovery")); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestRecoveryStore::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    QVERIFY(QDir(m_dir->path()).mkdir("work"));
}

void TestRecoveryStore::openNotebook(Open& open, const QString& name)
{
    NotebookData nb;
    CellData c;
    c.source = "saved";
    nb.cells.push_back(c);
    const QString path = m_dir->filePath("work/" + name + ".ipynb");
    QVERIFY(!IpynbWriter::writeFile(path, nb));
    QVERIFY(!open.file.open(path));
}

void TestRecoveryStore::writesWhileDirtyOnlyWhenChanged()
{
    Open nb;
    openNotebook(nb, "a");
    RecoveryWatcher watcher(store(), &nb.file);
    QCOMPARE(watcher.interval(), RecoveryWatcher::defaultIntervalMs);
    watcher.setInterval(20);
    QSignalSpy written(&watcher, &RecoveryWatcher::written);

    // Clean: nothing is written.
    QTest::qWait(100);
    QCOMPARE(written.size(), 0);
    QVERIFY(store().entries().empty());

    nb.doc.cell(0)->setSource("edited once");
    QTRY_COMPARE(written.size(), 1);
    QCOMPARE(written.at(0).at(0).toString(), watcher.recoveryFile());
    QVERIFY(QFile::exists(watcher.recoveryFile()));
    // The recovery directory is private to the user.
    QCOMPARE(QFile::permissions(store().directory()) & (QFile::ReadGroup | QFile::ReadOther),
             QFile::Permissions());

    // Unchanged since the last copy: no rewrite.
    QTest::qWait(150);
    QCOMPARE(written.size(), 1);

    nb.doc.insertCell(1, CellType::Markdown, "second edit");
    QTRY_COMPARE(written.size(), 2);
    const auto entries = store().entries();
    QCOMPARE(entries.size(), std::size_t(1));
    const Expected<NotebookData> copy = store().load(entries[0]);
    QVERIFY(copy.ok());
    QCOMPARE(copy.value().cells.size(), std::size_t(2));
    QCOMPARE(copy.value().cells[1].source, QString("second edit"));
    watcher.close();
}

void TestRecoveryStore::listedAfterCrash()
{
    const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-1);
    QString original;
    {
        Open nb;
        openNotebook(nb, "crashy");
        original = nb.file.path();
        auto watcher = std::make_unique<RecoveryWatcher>(store(), &nb.file);
        watcher->setInterval(20);
        QSignalSpy written(watcher.get(), &RecoveryWatcher::written);
        nb.doc.cell(0)->setSource("work that was never saved");
        nb.doc.cell(0)->appendOutput(StreamOutput{"stdout", "result\n"});
        QTRY_COMPARE(written.size(), 1);
        // The process dies here: nothing closes the watcher or saves the notebook.
    }
    // The file on disk still has the old content.
    QVERIFY(QFile::exists(original));

    // Next start: a fresh store over the same directory finds the copy.
    const RecoveryStore next(m_dir->filePath("recovery"));
    const auto entries = next.entries();
    QCOMPARE(entries.size(), std::size_t(1));
    const RecoveryEntry& e = entries[0];
    QCOMPARE(e.originalPath, original);
    QVERIFY(e.savedAt >= before);
    QVERIFY(e.savedAt <= QDateTime::currentDateTimeUtc());
    QCOMPARE(e.pid, QCoreApplication::applicationPid());
    QCOMPARE(e.key, RecoveryStore::keyFor(original));
    QVERIFY(e.notebookFile.endsWith(e.key + ".ipynb"));

    const Expected<NotebookData> data = next.load(e);
    QVERIFY(data.ok());
    NotebookDocument restored;
    restored.reset(data.value());
    QCOMPARE(restored.cell(0)->source(), QString("work that was never saved"));
    QCOMPARE(std::get<StreamOutput>(restored.cell(0)->outputs().at(0)).text, QString("result\n"));

    // The user restores it: unsaved changes to the original file, which Save writes there;
    // the new session's copy replaces the old one and goes away with the save.
    Open again;
    QSignalSpy dirty(&again.doc, &NotebookDocument::dirtyChanged);
    again.file.restore(e.originalPath, data.value());
    QVERIFY(again.doc.isDirty());
    QCOMPARE(dirty.size(), 1);
    QCOMPARE(again.file.path(), original);
    RecoveryWatcher watcher(next, &again.file);
    QCOMPARE(watcher.key(), e.key);
    watcher.flush();
    QVERIFY(watcher.waitForWrites());
    QCOMPARE(next.entries().size(), std::size_t(1));
    QVERIFY(!again.file.save());
    QVERIFY(next.entries().empty());
    QCOMPARE(IpynbReader::readFile(original).value().cells[0].source,
             QString("work that was never saved"));
}

void TestRecoveryStore::discard()
{
    Open nb;
    openNotebook(nb, "d");
    auto watcher = std::make_unique<RecoveryWatcher>(store(), &nb.file);
    nb.doc.cell(0)->setSource("x");
    watcher->flush();
    watcher.reset(); // crash, while the copy is being written: the write completes on its own
    RecoveryWatcher::waitForIdle();
    const auto entries = store().entries();
    QCOMPARE(entries.size(), std::size_t(1));
    store().discard(entries[0]);
    QVERIFY(store().entries().empty());
    QVERIFY(QDir(store().directory()).entryList(QDir::Files).isEmpty());
}

void TestRecoveryStore::removedOnSave()
{
    Open nb;
    openNotebook(nb, "b");
    RecoveryWatcher watcher(store(), &nb.file);
    watcher.setInterval(20);
    QSignalSpy written(&watcher, &RecoveryWatcher::written);
    QSignalSpy removed(&watcher, &RecoveryWatcher::removed);
    nb.doc.cell(0)->setSource("edit");
    QTRY_COMPARE(written.size(), 1);
    QCOMPARE(store().entries().size(), std::size_t(1));

    QVERIFY(!nb.file.save());
    QCOMPARE(removed.size(), 1);
    QVERIFY(store().entries().empty());
    QVERIFY(QDir(store().directory()).entryList(QDir::Files).isEmpty());

    // Editing again starts a new copy; a failed save (here: refused) keeps it.
    nb.doc.cell(0)->setSource("edit 2");
    QTRY_COMPARE(written.size(), 2);
    QVERIFY(nb.file.saveAs(m_dir->filePath("no/such/dir/b.ipynb")));
    QTest::qWait(50);
    QCOMPARE(store().entries().size(), std::size_t(1));
    watcher.close();
}

void TestRecoveryStore::removedOnClose()
{
    Open nb;
    openNotebook(nb, "c");
    RecoveryWatcher watcher(store(), &nb.file);
    watcher.setInterval(20);
    QSignalSpy written(&watcher, &RecoveryWatcher::written);
    nb.doc.cell(0)->setSource("edit");
    QTRY_COMPARE(written.size(), 1);
    watcher.close();
    QVERIFY(store().entries().empty());
    // Closed: later edits are not copied.
    nb.doc.cell(0)->setSource("after close");
    QTest::qWait(100);
    QCOMPARE(written.size(), 1);
    QVERIFY(store().entries().empty());
}

void TestRecoveryStore::untitledNotebook()
{
    Open a;
    Open b;
    RecoveryWatcher wa(store(), &a.file);
    RecoveryWatcher wb(store(), &b.file);
    QVERIFY(wa.key() != wb.key()); // untitled notebooks never share a copy
    wa.setInterval(20);
    wb.setInterval(20);
    QSignalSpy written(&wa, &RecoveryWatcher::written);
    a.doc.insertCell(0, CellType::Code, "untitled work");
    QTRY_COMPARE(written.size(), 1);
    const auto entries = store().entries();
    QCOMPARE(entries.size(), std::size_t(1));
    QVERIFY(entries[0].originalPath.isEmpty());
    QCOMPARE(store().load(entries[0]).value().cells[0].source, QString("untitled work"));
    wa.close();
    wb.close();
}

void TestRecoveryStore::defaultDirectoryFollowsXdgState()
{
    const QByteArray old = qgetenv("XDG_STATE_HOME");
    qputenv("XDG_STATE_HOME", m_dir->path().toUtf8());
    QCOMPARE(RecoveryStore::defaultDirectory(), m_dir->filePath("lizard-desktop/recovery"));
    qputenv("XDG_STATE_HOME", "relative/not/allowed");
    QVERIFY(RecoveryStore::defaultDirectory().endsWith("/recovery"));
    QVERIFY(QDir::isAbsolutePath(RecoveryStore::defaultDirectory()));
    QVERIFY(!RecoveryStore::defaultDirectory().contains("relative/not/allowed"));
    if (old.isNull())
        qunsetenv("XDG_STATE_HOME");
    else
        qputenv("XDG_STATE_HOME", old);
}

QTEST_GUILESS_MAIN(TestRecoveryStore)
#include "tst_recoverystore.moc"
