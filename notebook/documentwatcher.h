#pragma once
// Tells when anything in a notebook changed (a cell's source, type or outputs; cells added,
// removed, moved; a file opened), at most once per interval: views derived from the whole
// document (the table of contents, find's matches) rebuild then, not on every keystroke or
// every line a running cell prints.

#include "notebook/notebookdocument.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

namespace lizard::notebook {

class DocumentWatcher : public QObject
{
    Q_OBJECT
public:
    explicit DocumentWatcher(NotebookDocument* document, int intervalMs = 200,
                             QObject* parent = nullptr);

    void setInterval(int ms) { m_timer.setInterval(ms); }

signals:
    void changed();

private:
    void watch(Cell* cell);
    void schedule();

    QPointer<NotebookDocument> m_document;
    QTimer m_timer;
};

} // namespace lizard::notebook
