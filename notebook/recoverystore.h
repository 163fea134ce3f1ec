#pragma once
// The recovery directory: copies of unsaved notebooks written while they are open and dirty,
// so that after a crash the next start can offer to restore them. Each copy is
// "<hash>.ipynb" plus a sidecar "<hash>.json" holding the original path and the time.

#include "notebook/celldata.h"
#include "notebook/notebookerror.h"

#include <QDateTime>
#include <vector>

namespace lizard::notebook {

struct RecoveryEntry
{
    QString key;          // the <hash>
    QString notebookFile; // the recovery copy
    QString originalPath; // where the notebook lives (empty: it was never saved)
    QDateTime savedAt;    // when the copy was written (UTC)
    qint64 pid = 0;       // the process that wrote it
};

class RecoveryStore
{
public:
    // $XDG_STATE_HOME/lizard-desktop/recovery when XDG_STATE_HOME is set, else
    // <AppDataLocation>/recovery.
    static QString defaultDirectory();

    explicit RecoveryStore(QString directory = defaultDirectory());
    QString directory() const { return m_dir; }

    // What can be restored, newest first.
    std::vector<RecoveryEntry> entries() const;
    Expected<NotebookData> load(const RecoveryEntry& entry) const;
    void discard(const RecoveryEntry& entry) const { remove(entry.key); }

    // Used by RecoveryWatcher.
    static QString keyFor(const QString& originalPath); // stable for a path, fresh for untitled
    MaybeError write(const QString& key, const QString& originalPath,
                     const NotebookData& data) const;
    void remove(const QString& key) const;
    QString notebookPath(const QString& key) const;
    QString sidecarPath(const QString& key) const;

private:
    QString m_dir;
};

} // namespace lizard::notebook
