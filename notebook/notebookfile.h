#pragma once
// Ties a NotebookDocument to a file on disk: open, save, save as. A file that failed to load is
// never overwritten by save(): only an explicit saveAs() may write there.

#include "notebook/notebookdocument.h"
#include "notebook/notebookerror.h"

#include <QObject>
#include <functional>

namespace lizard::notebook {

class NotebookFile : public QObject
{
    Q_OBJECT
public:
    explicit NotebookFile(NotebookDocument* document, QObject* parent = nullptr);

    NotebookDocument* document() const { return m_document; }
    QString path() const { return m_path; }          // empty for an untitled notebook
    bool loadFailed() const { return m_loadFailed; } // path names a file that did not load

    // Reads path into the document. On failure the document is left exactly as it was, the
    // path is remembered as "failed to load" and save() refuses to write to it.
    MaybeError open(const QString& path);
    // The same, with the reading and parsing on a pool thread: the document takes the contents
    // (or the failure is remembered) on this thread in a later turn of the event loop, and then
    // `done` gets the outcome. Nothing happens if this object is gone by then.
    void openInBackground(const QString& path, std::function<void(MaybeError)> done);
    // Writes to path(); refuses when there is no path or when it failed to load.
    MaybeError save();
    // Puts a recovered copy (RecoveryStore::load) into the document as unsaved changes to
    // originalPath (empty: untitled). Save then writes it there.
    void restore(const QString& originalPath, const NotebookData& data);
    // Writes to a path the user chose (may be the one that failed to load) and adopts it.
    MaybeError saveAs(const QString& path);

signals:
    void pathChanged(const QString& path);
    void saved(const QString& path);

private:
    MaybeError adopt(const QString& absolute, Expected<NotebookData> data);
    void setPath(const QString& path, bool loadFailed);

    NotebookDocument* m_document;
    QString m_path;
    bool m_loadFailed = false;
};

} // namespace lizard::notebook
