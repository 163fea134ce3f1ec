#pragma once
// Autosave for one open notebook: while its document is dirty, writes a recovery copy every
// few seconds (only when something changed since the last copy). A clean save or close()
// removes the copy. Destroying the watcher without close() leaves the copy in place, which is
// what a crash does: the next start finds it in RecoveryStore::entries().

#include "notebook/notebookfile.h"
#include "notebook/recoverystore.h"

#include <QPointer>
#include <QTimer>

namespace lizard::notebook {

class RecoveryWatcher : public QObject
{
    Q_OBJECT
public:
    RecoveryWatcher(const RecoveryStore& store, NotebookFile* file, QObject* parent = nullptr);

    void setInterval(int ms) { m_timer.setInterval(ms); }
    int interval() const { return m_timer.interval(); }
    QString key() const { return m_key; }
    QString recoveryFile() const { return m_store.notebookPath(m_key); }

    // Writes the copy now if the document is dirty and changed since the last copy.
    void flush();
    // The notebook was closed on purpose: remove the copy and stop watching.
    void close();

    static constexpr int defaultIntervalMs = 5000;

signals:
    void written(const QString& recoveryFile);
    void writeFailed(const lizard::notebook::NotebookError& error);
    void removed();

private:
    void onDirtyChanged(bool dirty);
    void discardCopy();

    RecoveryStore m_store;
    QPointer<NotebookFile> m_file;
    QString m_key;
    QTimer m_timer;
    quint64 m_writtenRevision = 0;
    bool m_hasCopy = false;
    bool m_closed = false;
};

} // namespace lizard::notebook
