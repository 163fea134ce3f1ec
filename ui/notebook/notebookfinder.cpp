#include "ui/notebook/notebookfinder.h"

#include "notebook/documentwatcher.h"
#include "notebook/notebookdocument.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/outputview.h"
#include "ui/notebook/richtextview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QScrollBar>
#include <QTextDocument>
#include <QTextEdit>
#include <QtConcurrent/QtConcurrentRun>

namespace lizard::ui::notebook {

using namespace lizard::notebook;

namespace {

const QColor kMatch(255, 230, 110);
const QColor kCurrent(255, 150, 50);

QTextEdit::ExtraSelection marked(const QTextCursor& cursor, bool current)
{
    QTextEdit::ExtraSelection selection;
    selection.cursor = cursor;
    selection.format.setBackground(current ? kCurrent : kMatch);
    return selection;
}

} // namespace

NotebookFinder::NotebookFinder(NotebookDocument* document, CellListWidget* cells, QObject* parent)
    : QObject(parent), m_document(document), m_cells(cells),
      m_watcher(new DocumentWatcher(document, 250, this))
{
    connect(&m_future, &QFutureWatcher<QList<SearchMatch>>::finished, this,
            &NotebookFinder::onFinished);
    m_scrolled.setSingleShot(true);
    m_scrolled.setInterval(30);
    connect(&m_scrolled, &QTimer::timeout, this, &NotebookFinder::highlightVisible);
    connect(cells->verticalScrollBar(), &QScrollBar::valueChanged, &m_scrolled,
            qOverload<>(&QTimer::start));
    connect(m_watcher, &DocumentWatcher::changed, this, [this] {
        if (m_active && !m_needle.isEmpty())
            search();
    });
}

void NotebookFinder::setQuery(const QString& needle, Qt::CaseSensitivity cs)
{
    if (needle == m_needle && cs == m_cs)
        return;
    m_needle = needle;
    m_cs = cs;
    m_revealOnResult = true;
    // Like a browser: the first match from the current cell on.
    m_anchor = SearchMatch{std::max(0, m_cells ? m_cells->currentIndex() : 0),
                           SearchMatch::Place::InSource, -1, 0, 0};
    search();
}

void NotebookFinder::setActive(bool active)
{
    if (active == m_active)
        return;
    m_active = active;
    if (active) {
        search();
    } else {
        clearHighlights();
        m_matches.clear();
        m_current = -1;
        emit resultsChanged();
    }
}

QString NotebookFinder::countText() const
{
    if (m_needle.isEmpty())
        return {};
    if (m_matches.isEmpty())
        return m_searching ? QStringLiteral("…") : QStringLiteral("No results");
    return QStringLiteral("%1 of %2").arg(m_current + 1).arg(m_matches.size());
}

void NotebookFinder::search()
{
    if (!m_active || m_needle.isEmpty() || !m_document) {
        clearHighlights();
        m_matches.clear();
        m_current = -1;
        emit resultsChanged();
        return;
    }
    if (m_searching) { // its results are for an older query or document: search once it ends
        m_searchAgain = true;
        return;
    }
    m_searching = true;
    QElapsedTimer timer;
    timer.start();
    // Cheap: sources are shared QStrings, outputs shared pointers (OutputList).
    NotebookData data = m_document->toData();
    m_snapshotMs = timer.elapsed();
    m_future.setFuture(QtConcurrent::run([data = std::move(data), needle = m_needle, cs = m_cs] {
        return findInNotebook(data, needle, cs);
    }));
}

void NotebookFinder::onFinished()
{
    m_searching = false;
    if (m_searchAgain) {
        m_searchAgain = false;
        search();
        return;
    }
    if (!m_active)
        return;
    QElapsedTimer timer;
    timer.start();
    m_matches = m_future.result();
    int index = m_matches.isEmpty() ? -1 : 0;
    for (int i = 0; i < m_matches.size(); ++i) {
        if (!comesBefore(m_matches[i], m_anchor)) {
            index = i;
            break;
        }
    }
    choose(index, m_revealOnResult, true);
    m_revealOnResult = false;
    m_applyMs = timer.elapsed();
}

void NotebookFinder::next()
{
    if (!m_matches.isEmpty())
        choose((m_current + 1) % int(m_matches.size()), true, false);
}

void NotebookFinder::previous()
{
    if (!m_matches.isEmpty())
        choose((m_current - 1 + int(m_matches.size())) % int(m_matches.size()), true, false);
}

void NotebookFinder::choose(int index, bool revealIt, bool allCells)
{
    const int previous = m_current;
    m_current = index;
    if (index >= 0)
        m_anchor = m_matches[index];
    if (allCells) {
        highlight();
        rehighlightCellOf(index); // the current match is marked wherever it is (reveal goes there)
    } else { // the same matches: only the cells of the old and the new current one change
        rehighlightCellOf(previous);
        rehighlightCellOf(index);
    }
    if (revealIt)
        reveal();
    emit resultsChanged();
}

QList<QTextEdit*> NotebookFinder::outputViews(CellWidget* widget, int output) const
{
    if (output < 0)
        return widget->isRendered() ? QList<QTextEdit*>{widget->rendered()} : QList<QTextEdit*>{};
    OutputView* view = widget->outputs()->view(output);
    return view ? view->findChildren<QTextEdit*>() : QList<QTextEdit*>{};
}

void NotebookFinder::clearHighlights()
{
    for (const QPointer<CellWidget>& widget : std::as_const(m_highlighted)) {
        if (!widget)
            continue;
        widget->editor()->setExtraSelections({});
        for (QTextEdit* view : widget->findChildren<QTextEdit*>()) {
            view->setExtraSelections({});
            QTextCursor unselected = view->textCursor();
            unselected.clearSelection();
            view->setTextCursor(unselected);
        }
    }
    m_highlighted.clear();
}

void NotebookFinder::highlight()
{
    clearHighlights();
    highlightVisible();
}

void NotebookFinder::highlightVisible()
{
    // Only the cells in (or near) the view are marked: the cost of a search's results does not
    // grow with the notebook. Scrolling marks the cells that come into view.
    if (!m_cells || m_matches.isEmpty())
        return;
    const int top = m_cells->verticalScrollBar()->value() - m_cells->viewport()->height();
    const int bottom = m_cells->verticalScrollBar()->value() + 2 * m_cells->viewport()->height();
    for (int i = 0; i < m_matches.size();) {
        int end = i;
        while (end < m_matches.size() && m_matches[end].cell == m_matches[i].cell)
            ++end;
        // A cell not made yet is below what is on screen; it is marked when scrolled to.
        CellWidget* widget = m_cells->madeCellWidget(m_matches[i].cell);
        if (widget && widget->y() < bottom && widget->y() + widget->height() > top &&
            !m_highlighted.contains(widget))
            highlightCell(i, end);
        i = end;
    }
}

void NotebookFinder::rehighlightCellOf(int match)
{
    if (match < 0 || match >= m_matches.size())
        return;
    int first = match, end = match + 1;
    while (first > 0 && m_matches[first - 1].cell == m_matches[match].cell)
        --first;
    while (end < m_matches.size() && m_matches[end].cell == m_matches[match].cell)
        ++end;
    highlightCell(first, end);
}

void NotebookFinder::highlightCell(int first, int end)
{
    CellWidget* widget = m_cells ? m_cells->cellWidget(m_matches[first].cell) : nullptr;
    if (!widget)
        return;
    if (!m_highlighted.contains(widget))
        m_highlighted.append(widget);
    const QTextDocument::FindFlags flags =
        m_cs == Qt::CaseSensitive ? QTextDocument::FindCaseSensitively : QTextDocument::FindFlags();
    const auto placeOf = [](const SearchMatch& m) {
        return m.place == SearchMatch::Place::InSource ? -1 : m.output;
    };
    QList<QTextEdit::ExtraSelection> inEditor;
    QList<int> places; // output index, -1 for the source
    for (int j = first; j < end; ++j) {
        const SearchMatch& m = m_matches[j];
        if (!places.contains(placeOf(m)))
            places.append(placeOf(m));
        if (m.place == SearchMatch::Place::InSource) {
            QTextCursor c(widget->editor()->document());
            c.setPosition(m.start);
            c.setPosition(m.start + m.length, QTextCursor::KeepAnchor);
            inEditor.append(marked(c, j == m_current));
        }
    }
    widget->editor()->setExtraSelections(inEditor);
    // Outputs (and rendered markdown) show text that is not the searched text verbatim: their
    // occurrences are found in what the view shows. The current match is the occurrence of the
    // same rank among its place's matches.
    int currentRank = -1, currentPlace = -2;
    if (m_current >= first && m_current < end) {
        currentPlace = placeOf(m_matches[m_current]);
        currentRank = 0;
        for (int j = first; j < m_current; ++j)
            currentRank += placeOf(m_matches[j]) == currentPlace;
    }
    for (int place : std::as_const(places)) {
        int rank = 0;
        for (QTextEdit* view : outputViews(widget, place)) {
            QList<QTextEdit::ExtraSelection> marks;
            QTextCursor unselected = view->textCursor(); // the match that was current is no more
            unselected.clearSelection();
            view->setTextCursor(unselected);
            for (QTextCursor c = view->document()->find(m_needle, 0, flags); !c.isNull();
                 c = view->document()->find(m_needle, c, flags), ++rank) {
                const bool current = place == currentPlace && rank == currentRank;
                marks.append(marked(c, current));
                if (current)
                    view->setTextCursor(c);
            }
            view->setExtraSelections(marks);
        }
    }
}

void NotebookFinder::reveal()
{
    if (!m_cells || m_current < 0)
        return;
    const SearchMatch m = m_matches[m_current];
    CellWidget* widget = m_cells->cellWidget(m.cell);
    if (!widget)
        return;
    // The keyboard stays where it is (the find bar), unless it was in a cell.
    QPointer<QWidget> focus = QApplication::focusWidget();
    const bool outside = focus && focus != m_cells && !m_cells->isAncestorOf(focus);
    if (m_cells->mode() == CellListWidget::Mode::Edit)
        m_cells->enterCommandMode(); // edit mode would un-render markdown on its way
    m_cells->setCurrentIndex(m.cell);
    if (outside && focus)
        focus->setFocus(Qt::OtherFocusReason);
    // The rectangle of the match, in the cell list's coordinates.
    QWidget* viewport = nullptr;
    QRect rect;
    if (m.place == SearchMatch::Place::InSource && !widget->isRendered()) {
        QTextCursor c(widget->editor()->document());
        c.setPosition(m.start);
        c.setPosition(m.start + m.length, QTextCursor::KeepAnchor);
        widget->editor()->setTextCursor(c);
        viewport = widget->editor()->viewport();
        rect = widget->editor()->cursorRect(c);
    } else {
        for (QTextEdit* view :
             outputViews(widget, m.place == SearchMatch::Place::InSource ? -1 : m.output)) {
            if (view->textCursor().hasSelection()) {
                viewport = view->viewport();
                rect = view->cursorRect(view->textCursor());
            }
        }
    }
    // After the list's own reveal of the cell (queued too, once the layout has placed it).
    QPointer<QWidget> target(viewport);
    QPointer<CellListWidget> cells(m_cells);
    QMetaObject::invokeMethod(
        m_cells,
        [cells, target, rect] {
            if (!cells || !target || !cells->widget())
                return;
            const QPoint at = target->mapTo(cells->widget(), rect.center());
            cells->ensureVisible(at.x(), at.y(), 40, std::max(60, cells->viewport()->height() / 4));
        },
        Qt::QueuedConnection);
}

bool NotebookFinder::replaceCurrent(const QString& replacement)
{
    if (!m_cells || m_current < 0)
        return false;
    const SearchMatch m = m_matches[m_current];
    if (m.place != SearchMatch::Place::InSource) {
        for (int step = 1; step < m_matches.size(); ++step) {
            const int j = (m_current + step) % int(m_matches.size());
            if (m_matches[j].place == SearchMatch::Place::InSource) {
                choose(j, true, false);
                break;
            }
        }
        return false;
    }
    CellWidget* widget = m_cells->cellWidget(m.cell);
    if (!widget)
        return false;
    QTextCursor c(widget->editor()->document());
    c.setPosition(m.start);
    c.setPosition(m.start + m.length, QTextCursor::KeepAnchor);
    if (QString::compare(c.selectedText(), m_needle, m_cs) !=
        0) { // the text moved since: look again
        search();
        return false;
    }
    c.insertText(replacement); // one undo step in that cell's editor
    if (widget->isRendered())
        widget->rendered()->document()->setMarkdown(widget->cell()->source());
    m_anchor =
        SearchMatch{m.cell, SearchMatch::Place::InSource, -1, m.start + int(replacement.size()), 0};
    m_revealOnResult = true;
    search();
    return true;
}

int NotebookFinder::replaceAll(const QString& replacement)
{
    if (!m_cells || m_needle.isEmpty())
        return 0;
    int total = 0;
    for (int i = 0; i < m_cells->count(); ++i) {
        CellWidget* widget = m_cells->cellWidget(i);
        CellEditor* editor = widget->editor();
        const auto found = findInText(editor->toPlainText(), m_needle, m_cs);
        if (found.isEmpty())
            continue;
        QTextCursor c(editor->document());
        c.beginEditBlock(); // the whole cell's replacements are one Ctrl+Z
        for (auto it = found.crbegin(); it != found.crend(); ++it) {
            c.setPosition(it->first);
            c.setPosition(it->first + it->second, QTextCursor::KeepAnchor);
            c.insertText(replacement);
        }
        c.endEditBlock();
        if (widget->isRendered())
            widget->rendered()->document()->setMarkdown(widget->cell()->source());
        total += int(found.size());
    }
    search();
    return total;
}

} // namespace lizard::ui::notebook
