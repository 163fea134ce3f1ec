#include "ui/notebook/celllistwidget.h"

#include "notebook/runqueue.h"
#include "ui/notebook/cellcolumnlayout.h"
#include "ui/notebook/cellcompleter.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/outputarea.h"

#include <QCoreApplication>
#include <QKeyEvent>
#include <QScopedValueRollback>
#include <QScrollBar>

namespace lizard::ui::notebook {

using lizard::notebook::Cell;
using lizard::notebook::CellType;
using lizard::notebook::NotebookDocument;

namespace {
constexpr int kDoubleKeyMs = 800;
// Layout passes that place a finished cell's last output: one per widget between its text and
// the list, and one more per height a text view fits to its document. Passes with nothing
// pending cost nothing.
constexpr int kLayoutPasses = 12;
} // namespace

CellListWidget::CellListWidget(NotebookDocument* document, QWidget* parent)
    : QScrollArea(parent), m_document(document), m_container(new QWidget),
      m_layout(new CellColumnLayout(m_container))
{
    setWidgetResizable(true);
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_layout->setContentsMargins(4, 6, 4, 6);
    m_layout->setSpacing(6);
    setWidget(m_container);
    // The column grows as cells are made below the view: only what a resize uncovers is
    // painted, not every cell on screen again.
    m_container->setAttribute(Qt::WA_StaticContents);
    connect(document, &NotebookDocument::cellInserted, this, &CellListWidget::insertWidget);
    connect(document, &NotebookDocument::cellRemoved, this,
            [this](int index, Cell*) { removeWidget(index); });
    connect(document, &NotebookDocument::cellMoved, this, &CellListWidget::moveWidget);
    connect(document, &NotebookDocument::documentReset, this, &CellListWidget::rebuild);
    // Content grew or shrank (outputs arrived, a cell was added): follow the running cell.
    connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, &CellListWidget::onRangeChanged);
    // actionTriggered comes only from the user (wheel, dragging, the bar's buttons, page keys);
    // the value change that follows it is theirs, unlike ours and the clamping of a new range.
    connect(verticalScrollBar(), &QScrollBar::actionTriggered, this,
            [this] { m_userScroll = true; });
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, &CellListWidget::onUserScrolled);
    rebuild();
}

void CellListWidget::setRunner(lizard::notebook::CodeRunner* runner)
{
    m_runner = runner;
    for (CellWidget* w : m_widgets)
        w->findChild<CellCompleter*>()->setRunner(runner);
}

void CellListWidget::setCodeLanguage(const QString& language)
{
    m_language = language;
    for (CellWidget* w : m_widgets)
        w->setCodeLanguage(language);
}

void CellListWidget::insertWidget(int index)
{
    Cell* cell = m_document->cell(index);
    if (!cell)
        return;
    if (index > m_widgets.size()) { // past the widgets made so far: made in its turn
        if (m_current >= index)
            ++m_current;
        return;
    }
    auto* widget = new CellWidget(cell, m_language);
    (new CellCompleter(widget->editor(), m_document, widget))->setRunner(m_runner);
    connectWidget(widget);
    m_layout->insertWidget(index, widget);
    m_widgets.insert(index, widget);
    if (m_current >= index)
        ++m_current;
    if (m_current < 0)
        setCurrentIndex(index);
    else
        updateSelection();
}

void CellListWidget::removeWidget(int index)
{
    if (index < 0)
        return;
    if (index >= m_widgets.size()) { // a cell whose widget was not made yet
        if (m_current > index)
            --m_current;
        stopMakingIfDone();
        return;
    }
    const bool hadFocus = m_widgets[index]->editor()->hasFocus();
    delete m_widgets.takeAt(index);
    if (m_current > index || m_current >= count())
        --m_current;
    if (hadFocus)
        setFocus(Qt::OtherFocusReason);
    updateSelection();
    emit currentChanged(m_current);
}

void CellListWidget::moveWidget(int from, int to)
{
    if (from < 0 || to < 0 || from >= count() || to >= count())
        return;
    if (from >= m_widgets.size() || to >= m_widgets.size()) {
        // One end is past the widgets made so far: those from the nearer end on are made again.
        forgetFrom(std::min(from, to));
        if (m_current == from)
            m_current = to;
        makeUpTo(m_current);
        updateSelection();
        return;
    }
    CellWidget* w = m_widgets.takeAt(from);
    m_widgets.insert(to, w);
    m_layout->removeWidget(w);
    m_layout->insertWidget(to, w);
    if (m_current == from)
        m_current = to;
    updateSelection();
}

void CellListWidget::connectWidget(CellWidget* widget)
{
    auto indexOf = [this](CellWidget* w) { return int(m_widgets.indexOf(w)); };
    connect(widget, &CellWidget::clicked, this, [this, indexOf](CellWidget* w) {
        setCurrentIndex(indexOf(w));
        if (!w->editor()->underMouse())
            enterCommandMode();
    });
    connect(widget, &CellWidget::editRequested, this, [this, indexOf](CellWidget* w) {
        setCurrentIndex(indexOf(w));
        enterEditMode();
    });
    connect(widget, &CellWidget::editorFocused, this, [this, indexOf](CellWidget* w) {
        m_current = indexOf(w);
        if (m_mode != Mode::Edit) {
            m_mode = Mode::Edit;
            emit modeChanged(m_mode);
        }
        updateSelection();
        emit currentChanged(m_current);
    });
    connect(widget->cell(), &Cell::statusChanged, this,
            [this, widget](lizard::notebook::CellStatus status) {
                using lizard::notebook::CellStatus;
                if (status == CellStatus::Running) // Run all moves along the cells
                    m_followed = widget;
                else if (status != CellStatus::Queued && widget == m_followed)
                    finishFollowing(widget);
            });
    CellEditor* editor = widget->editor();
    connect(editor, &CellEditor::runRequested, this, &CellListWidget::runCurrent);
    connect(editor, &CellEditor::escapePressed, this, &CellListWidget::enterCommandMode);
    connect(editor, &CellEditor::leaveUp, this, [this] {
        if (m_current > 0) {
            setCurrentIndex(m_current - 1);
            currentWidget()->editor()->moveCursor(QTextCursor::End);
        }
    });
    connect(editor, &CellEditor::leaveDown, this, [this] {
        if (m_current + 1 < count()) {
            setCurrentIndex(m_current + 1);
            currentWidget()->editor()->moveCursor(QTextCursor::Start);
        }
    });
}

void CellListWidget::setCurrentIndex(int index)
{
    if (count() == 0)
        index = -1;
    else
        index = std::clamp(index, 0, count() - 1);
    makeUpTo(index);
    // And a screen of cells below it, so that it can be brought to the top of the view (when
    // the list is shown: a hidden one has no view to fill, see wantSlices).
    for (int i = index + 1, height = 0;
         isVisible() && !isComplete() && i < count() && height < viewport()->height(); ++i)
        height += cellWidget(i)->sizeHint().height();
    const bool changed = index != m_current;
    if (changed && !m_advancing)
        m_followed = nullptr; // the user went elsewhere: stay with them
    m_current = index;
    updateSelection();
    if (CellWidget* w = currentWidget()) {
        if (m_mode == Mode::Edit)
            w->startEditing();
        revealCurrent();
    }
    if (changed)
        emit currentChanged(m_current);
}

void CellListWidget::revealCurrent()
{
    // A cell inserted just now has no geometry yet: the layout places it when the event loop
    // delivers its LayoutRequest, so the scroll waits for that.
    if (m_revealPending)
        return;
    m_revealPending = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_revealPending = false;
            // A pass moves a size one step up (editor, cell, list).
            for (int pass = 0; pass < kLayoutPasses; ++pass)
                QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            m_layout->activate();
            if (CellWidget* w = currentWidget()) {
                const int before = verticalScrollBar()->value();
                ensureWidgetVisible(w, 0, 20);
                if (verticalScrollBar()->value() != before)
                    m_userScroll = false;
                m_keepRevealed = true;
            }
        },
        Qt::QueuedConnection);
}

void CellListWidget::onRangeChanged()
{
    followRunningOutput();
    if (m_followed || !m_keepRevealed || m_revealPending)
        return;
    CellWidget* w = currentWidget();
    if (!w || viewport()->rect().contains(QRect(w->mapTo(viewport(), QPoint(0, 0)), w->size())))
        return;
    const int before = verticalScrollBar()->value();
    ensureWidgetVisible(w, 0, 20);
    if (verticalScrollBar()->value() != before)
        m_userScroll = false;
}

void CellListWidget::scrollTo(int value)
{
    m_keepRevealed = false; // following a run takes over
    m_userScroll = false;
    verticalScrollBar()->setValue(value);
}

void CellListWidget::followRunningOutput()
{
    CellWidget* running = m_followed;
    if (!m_follow || !running)
        return;
    // The end of the running cell at the bottom of the view, then the current cell (usually the
    // one just below it, after Shift+Enter) as well when it fits.
    const int viewHeight = viewport()->height();
    const int end = running->geometry().bottom() + 6;
    QScrollBar* bar = verticalScrollBar();
    if (end > bar->value() + viewHeight)
        scrollTo(std::min(bar->maximum(), end - viewHeight));
    if (CellWidget* w = currentWidget(); w && w != running) {
        const int bottom = w->geometry().bottom() + 6;
        if (bottom > bar->value() + viewHeight &&
            bottom - viewHeight <= running->geometry().bottom() - 20)
            scrollTo(std::min(bar->maximum(), bottom - viewHeight));
    }
}

void CellListWidget::finishFollowing(CellWidget* widget)
{
    // The run is over, but its last outputs are not in place yet: new output views show from
    // queued calls, a stream batches its repaints, and the layouts that give the cell its new
    // height run from posted events. After what is queued now, show and place them, bring the
    // view to the cell's end once, and stop: following a finished cell would pull the view back
    // down whenever one of its outputs changes height later (web views are made, dropped and
    // measured as the user scrolls through them), long after the user took over.
    QMetaObject::invokeMethod(
        this,
        [this, done = QPointer<CellWidget>(widget)] {
            if (!done || done != m_followed)
                return; // another run started, or the user went elsewhere
            // Cells that ended just before it may still be painting their last output too.
            for (CellWidget* w : std::as_const(m_widgets))
                w->outputs()->flush();
            // A pass moves a size one step up (text, view, row, output area, cell, list).
            for (int pass = 0; pass < kLayoutPasses; ++pass)
                QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            m_layout->activate();
            followRunningOutput();
            m_followed = nullptr;
        },
        Qt::QueuedConnection);
}

void CellListWidget::onUserScrolled()
{
    if (!m_userScroll)
        return;
    m_userScroll = false;
    m_keepRevealed = false;
    using lizard::notebook::CellStatus;
    if (m_followed) {
        const CellStatus status = m_followed->cell()->status();
        if (status != CellStatus::Running && status != CellStatus::Queued)
            m_followed = nullptr; // its run ended: the user takes over before the last reveal
    }
    // Like a terminal: reading above the end stops following; back at the end, it resumes.
    QScrollBar* bar = verticalScrollBar();
    const int viewBottom = bar->value() + viewport()->height();
    CellWidget* running = m_followed;
    const bool atEnd = bar->value() >= bar->maximum() - 4;
    m_follow = atEnd || (running && running->geometry().bottom() <= viewBottom &&
                         running->geometry().bottom() >= bar->value());
}

void CellListWidget::updateSelection()
{
    for (int i = 0; i < m_widgets.size(); ++i)
        m_widgets[i]->setSelected(i == m_current, m_mode == Mode::Edit);
}

void CellListWidget::enterEditMode()
{
    CellWidget* w = currentWidget();
    if (!w)
        return;
    m_mode = Mode::Edit;
    w->startEditing();
    updateSelection();
    emit modeChanged(m_mode);
}

void CellListWidget::enterCommandMode()
{
    const bool changed = m_mode != Mode::Command;
    m_mode = Mode::Command;
    setFocus(Qt::OtherFocusReason);
    updateSelection();
    if (changed)
        emit modeChanged(m_mode);
}

void CellListWidget::focusInEvent(QFocusEvent* event)
{
    QScrollArea::focusInEvent(event);
    if (m_mode == Mode::Edit) { // focus came back to the list itself: command mode
        m_mode = Mode::Command;
        updateSelection();
        emit modeChanged(m_mode);
    }
}

void CellListWidget::runCell(int index)
{
    Cell* cell = m_document->cell(index);
    if (cell && m_queue)
        m_queue->run(cell);
}

void CellListWidget::runCurrent(CellEditor::RunMode mode)
{
    if (m_current < 0)
        return;
    const int index = m_current;
    m_follow = true; // running a cell is looking at it
    m_followed = currentWidget();
    const QScopedValueRollback advancing(m_advancing, true);
    runCell(index);
    switch (mode) {
    case CellEditor::RunMode::InPlace:
        enterCommandMode();
        break;
    case CellEditor::RunMode::InsertBelow:
        m_document->insertCell(index + 1, CellType::Code);
        setCurrentIndex(index + 1);
        enterEditMode();
        break;
    case CellEditor::RunMode::Advance:
        if (index + 1 >= count()) {
            m_document->insertCell(index + 1, CellType::Code);
            setCurrentIndex(index + 1);
            enterEditMode();
        } else {
            enterCommandMode();
            setCurrentIndex(index + 1);
        }
        break;
    }
}

void CellListWidget::runAll()
{
    if (m_queue)
        m_queue->runAll();
}

void CellListWidget::insertCell(bool below)
{
    const int index = m_current < 0 ? 0 : m_current + (below ? 1 : 0);
    m_document->insertCell(index, CellType::Code);
    setCurrentIndex(index);
}

void CellListWidget::deleteCurrent()
{
    if (m_current < 0)
        return;
    const int index = m_current;
    m_document->removeCell(index);
    if (m_document->cellCount() == 0)
        m_document->insertCell(0, CellType::Code); // a notebook always has a cell to type in
    setCurrentIndex(std::min(index, count() - 1));
}

void CellListWidget::undoDelete()
{
    if (Cell* cell = m_document->undoRemove())
        setCurrentIndex(m_document->indexOf(cell));
}

void CellListWidget::setCurrentType(CellType type)
{
    if (Cell* cell = m_document->cell(m_current); cell && cell->type() != type)
        cell->setType(type);
}

void CellListWidget::keyPressEvent(QKeyEvent* event)
{
    const Qt::KeyboardModifiers mods = event->modifiers() & ~Qt::KeypadModifier;
    const int key = event->key();
    const bool enter = key == Qt::Key_Return || key == Qt::Key_Enter;
    const bool pendingD = m_lastD.isValid() && m_lastD.elapsed() < kDoubleKeyMs;
    m_lastD.invalidate();
    if (enter && mods == Qt::ShiftModifier)
        runCurrent(CellEditor::RunMode::Advance);
    else if (enter && mods == Qt::ControlModifier)
        runCurrent(CellEditor::RunMode::InPlace);
    else if (enter && mods == Qt::AltModifier)
        runCurrent(CellEditor::RunMode::InsertBelow);
    else if (mods != Qt::NoModifier && mods != Qt::ShiftModifier)
        QScrollArea::keyPressEvent(event);
    else if (enter)
        enterEditMode();
    else if (key == Qt::Key_A)
        insertCell(false);
    else if (key == Qt::Key_B)
        insertCell(true);
    else if (key == Qt::Key_D && pendingD)
        deleteCurrent();
    else if (key == Qt::Key_D)
        m_lastD.start();
    else if (key == Qt::Key_Z)
        undoDelete();
    else if (key == Qt::Key_M)
        setCurrentType(CellType::Markdown);
    else if (key == Qt::Key_Y)
        setCurrentType(CellType::Code);
    else if (key == Qt::Key_Up || key == Qt::Key_K)
        setCurrentIndex(m_current - 1);
    else if (key == Qt::Key_Down || key == Qt::Key_J)
        setCurrentIndex(m_current + 1);
    else
        QScrollArea::keyPressEvent(event);
}

} // namespace lizard::ui::notebook
