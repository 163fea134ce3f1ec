#pragma once
// Find and replace across a notebook's cells, behind the find bar. The search itself
// (notebook/notebooksearch.h) runs on a snapshot of the document in a worker thread, so a big
// notebook does not stall typing; it runs again when the document changes while find is open.
// Matches are highlighted in the editors, the rendered markdown and the output views; the
// current one is selected, its cell made current and scrolled into view. Replace edits the
// cells' editors, one undo step per cell (Ctrl+Z in that editor), never outputs.

#include "notebook/notebooksearch.h"

#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

class QTextEdit;

namespace lizard::notebook {
class DocumentWatcher;
class NotebookDocument;
} // namespace lizard::notebook

namespace lizard::ui::notebook {

class CellListWidget;
class CellWidget;

class NotebookFinder : public QObject
{
    Q_OBJECT
public:
    NotebookFinder(lizard::notebook::NotebookDocument* document, CellListWidget* cells,
                   QObject* parent = nullptr);

    // Starts a search; the results come with resultsChanged(). An empty needle clears.
    void setQuery(const QString& needle, Qt::CaseSensitivity cs);
    QString needle() const { return m_needle; }
    // Off: highlights cleared and no searching on document changes (the find bar is closed).
    void setActive(bool active);
    bool isSearching() const { return m_searching; }

    const QList<lizard::notebook::SearchMatch>& matches() const { return m_matches; }
    int currentIndex() const { return m_current; } // -1 with no matches
    // "3 of 17", "No results", or "" with no query.
    QString countText() const;

    void next();
    void previous();
    // The current match, when it is in a source, replaced; then the next one is current. On an
    // output match it moves to the next source match instead. Returns whether it replaced.
    bool replaceCurrent(const QString& replacement);
    // Every occurrence in every cell's source; returns how many.
    int replaceAll(const QString& replacement);

    // Milliseconds of the last search: snapshot on the UI thread, and the worker's search.
    qint64 lastSnapshotMs() const { return m_snapshotMs; }
    qint64 lastApplyMs() const { return m_applyMs; }

signals:
    void resultsChanged();

private:
    void search();
    void onFinished();
    // allCells: new results, every cell's marks redone; else only the current match moved.
    void choose(int index, bool reveal, bool allCells);
    void highlight();
    void highlightVisible();
    void highlightCell(int first, int end); // matches [first, end) are one cell's
    void rehighlightCellOf(int match);
    void clearHighlights();
    void reveal();
    // The rendered markdown or output text views of a cell where its matches can be shown.
    QList<QTextEdit*> outputViews(CellWidget* widget, int output) const;

    QPointer<lizard::notebook::NotebookDocument> m_document;
    QPointer<CellListWidget> m_cells;
    lizard::notebook::DocumentWatcher* m_watcher;
    QFutureWatcher<QList<lizard::notebook::SearchMatch>> m_future;
    QString m_needle;
    Qt::CaseSensitivity m_cs = Qt::CaseInsensitive;
    bool m_active = false;
    bool m_searching = false;
    bool m_searchAgain = false;
    bool m_revealOnResult = false; // a new query or a replace: show where the match is
    QList<lizard::notebook::SearchMatch> m_matches;
    int m_current = -1;
    // Where the current match was: results of the next search pick the first match from here.
    lizard::notebook::SearchMatch m_anchor;
    QList<QPointer<CellWidget>> m_highlighted;
    QTimer m_scrolled;
    qint64 m_snapshotMs = 0;
    qint64 m_applyMs = 0;
};

} // namespace lizard::ui::notebook
