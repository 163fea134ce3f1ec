#pragma once
// Autosave for one open notebook: while its document is dirty, writes a recovery copy every
// few seconds (only when something changed since the last copy). A clean save or close()
// removes the copy. Destroying the watcher without close() leaves the copy in place, which is
// what a crash does: the next start finds it in RecoveryStore::entries().
//
// The UI thread only takes a snapshot (NotebookDocument::toData(), which shares the outputs
// rather than copying them); a low-priority worker thread serialises and writes it. One
// write per copy at a time, in order: an edit made during a write is written once it is done,
// and a write never replaces a newer copy with an older one. A write still running when the
// watcher goes finishes on its own (the application waits for it on exit). waitForIdle() waits
// for every notebook's writes (tests).

#include "notebook/notebookfile.h"
#include "notebook/recoverystore.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QTimer>
#include <memory>

namespace lizard::notebook {

class RecoveryWatcher : public QObject
{
    Q_OBJECT
public:
    RecoveryWatcher(const RecoveryStore& store, NotebookFile* file, QObject* parent = nullptr);
    // Writes what changed since the last copy (unless close() was called), in the background.
    ~RecoveryWatcher() override;

    void setInterval(int ms) { m_timer.setInterval(ms); }
    int interval() const { return m_timer.interval(); }
    QString key() const { return m_key; }
    QString recoveryFile() const { return m_store.notebookPath(m_key); }

    // Starts writing the copy if the document is dirty and changed since the last copy. While
    // a write runs, the request waits for it and then writes the state of that moment.
    void flush();
    // The notebook was closed on purpose: remove the copy and stop watching. A write that is
    // still running removes what it wrote.
    void close();

    bool isWriting() const { return m_writing; }
    // Runs the event loop until no write runs or waits (tests, benchmarks). False on timeout.
    bool waitForWrites(int msecs = 30000);
    // Blocks until every watcher's writes are done (tests; the application's exit does this).
    static void waitForIdle();
    // How long the UI thread spent taking the last snapshot.
    qint64 lastSnapshotNs() const { return m_snapshotNs; }

    static constexpr int defaultIntervalMs = 5000;

    struct Result
    {
        MaybeError error;
        bool skipped = false; // superseded by a newer copy, or the copy was discarded meanwhile
        quint64 revision = 0;
    };

signals:
    void written(const QString& recoveryFile);
    void writeFailed(const lizard::notebook::NotebookError& error);
    void removed();

private:
    struct Shared;
    void start(NotebookData data, quint64 revision);
    void onWriteDone();
    void onDirtyChanged(bool dirty);
    void discardCopy();

    RecoveryStore m_store;
    QPointer<NotebookFile> m_file;
    QString m_key;
    QTimer m_timer;
    std::shared_ptr<Shared> m_shared;
    QFutureWatcher<Result> m_job;
    quint64 m_writtenRevision = 0;
    quint64 m_writingRevision = 0;
    quint64 m_writingGeneration = 0;
    qint64 m_snapshotNs = 0;
    bool m_hasCopy = false;
    bool m_closed = false;
    bool m_writing = false;
    bool m_pending = false; // flush() was asked while a write ran
};

} // namespace lizard::notebook
