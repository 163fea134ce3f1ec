#include "notebook/documentwatcher.h"

namespace lizard::notebook {

DocumentWatcher::DocumentWatcher(NotebookDocument* document, int intervalMs, QObject* parent)
    : QObject(parent), m_document(document)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &DocumentWatcher::changed);
    const auto watchAll = [this] {
        for (int i = 0; i < m_document->cellCount(); ++i)
            watch(m_document->cell(i));
    };
    connect(document, &NotebookDocument::cellInserted, this, [this](int index) {
        watch(m_document->cell(index));
        schedule();
    });
    connect(document, &NotebookDocument::cellRemoved, this, [this](int, Cell* cell) {
        disconnect(cell, nullptr, this, nullptr); // it may come back (undo): watched again then
        schedule();
    });
    connect(document, &NotebookDocument::cellMoved, this, &DocumentWatcher::schedule);
    connect(document, &NotebookDocument::documentReset, this, [this, watchAll] {
        watchAll();
        schedule();
    });
    watchAll();
}

void DocumentWatcher::watch(Cell* cell)
{
    if (!cell)
        return;
    // edited() covers source, type and outputs; UniqueConnection: a cell restored by undo is
    // inserted again.
    connect(cell, &Cell::edited, this, &DocumentWatcher::schedule, Qt::UniqueConnection);
}

void DocumentWatcher::schedule()
{
    if (!m_timer.isActive())
        m_timer.start();
}

} // namespace lizard::notebook
