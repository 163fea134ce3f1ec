// CellListWidget: making the cells' widgets a few at a time (see celllistwidget.h).
#include "ui/notebook/cellcolumnlayout.h"
#include "ui/notebook/cellcompleter.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPointer>
#include <QScrollBar>
#include <QShowEvent>
#include <QTimer>

namespace lizard::ui::notebook {

using lizard::notebook::Cell;

namespace {
// Making widgets: the first screen at once, then slices that leave the event loop most of each
// frame. A cell widget takes one to two milliseconds.
constexpr qint64 kFirstScreenNs = 12'000'000;
constexpr qint64 kSliceNs = 4'000'000; // and the layout and paint of what it made: within a frame
constexpr qint64 kLateNs = 4'000'000;  // a 1 ms timer this late: the loop had something long to do
} // namespace

// The lists that still have widgets to make take turns, one slice per turn of the event loop:
// notebooks opened together (a session restored) do not add their slices up into one stall.
// Only lists on screen make widgets: one hidden meanwhile goes on when shown again, since being
// shown lays out all it made while hidden in one turn.
class CellSlices : public QObject
{
public:
    static CellSlices& instance()
    {
        static CellSlices* slices = new CellSlices(QCoreApplication::instance());
        return *slices;
    }

    void want(CellListWidget* list)
    {
        if (!wants(list))
            m_lists.append(list);
        if (!m_timer.isActive())
            schedule();
    }
    void drop(CellListWidget* list) { m_lists.removeAll(list); }
    bool wants(CellListWidget* list) const { return m_lists.contains(list); }

private:
    explicit CellSlices(QObject* parent) : QObject(parent)
    {
        // A millisecond between slices: what else is due (input, a paint, other timers) runs
        // between them.
        m_timer.setSingleShot(true);
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        connect(&m_timer, &QTimer::timeout, this, &CellSlices::turn);
    }

    void schedule()
    {
        m_due.start();
        m_timer.start();
    }

    void turn()
    {
        m_lists.removeAll(nullptr); // deleted meanwhile
        if (m_lists.isEmpty())
            return;
        // Late: the loop was busy (a page was shown and painted, say). One more millisecond
        // first, so that a slice does not add itself to that turn.
        if (m_due.nsecsElapsed() > kLateNs && !m_yielded) {
            m_yielded = true;
            schedule();
            return;
        }
        m_yielded = false;
        auto next = std::find_if(m_lists.begin(), m_lists.end(),
                                 [](const QPointer<CellListWidget>& l) { return l->isVisible(); });
        if (next == m_lists.end())
            return; // until one is shown (CellListWidget::showEvent)
        const QPointer<CellListWidget> list = *next;
        list->makeSlice();
        if (list && !list->isComplete()) { // to the back: the others' turn next
            m_lists.removeAll(list);
            m_lists.append(list);
        }
        if (!m_lists.isEmpty())
            schedule();
    }

    QTimer m_timer;
    QElapsedTimer m_due; // since the timer was started
    bool m_yielded = false;
    QList<QPointer<CellListWidget>> m_lists;
};

int CellListWidget::count() const
{
    return m_document ? m_document->cellCount() : int(m_widgets.size());
}

bool CellListWidget::isComplete() const
{
    return int(m_widgets.size()) == count();
}

CellWidget* CellListWidget::cellWidget(int index) const
{
    if (index >= m_widgets.size() && index < count())
        const_cast<CellListWidget*>(this)->makeUpTo(index);
    return index >= 0 && index < m_widgets.size() ? m_widgets[index] : nullptr;
}

void CellListWidget::makeNext()
{
    const int index = int(m_widgets.size());
    Cell* cell = m_document ? m_document->cell(index) : nullptr;
    if (!cell)
        return;
    auto* widget = new CellWidget(cell, m_language);
    (new CellCompleter(widget->editor(), m_document, widget))->setRunner(m_runner);
    connectWidget(widget);
    m_layout->insertWidget(index, widget);
    m_widgets.append(widget);
    widget->setSelected(index == m_current, m_mode == Mode::Edit);
    // Shown (and so polished) now, inside the slice that made it, not in a batch of queued
    // shows after it.
    if (m_container->isVisible())
        widget->show();
    if (isComplete()) {
        CellSlices::instance().drop(this);
        emit completed();
    }
}

void CellListWidget::makeUpTo(int last)
{
    while (m_widgets.size() <= last && !isComplete())
        makeNext();
}

void CellListWidget::makeSlice()
{
    QElapsedTimer slice;
    slice.start();
    while (!isComplete() && slice.nsecsElapsed() < kSliceNs)
        makeNext();
}

void CellListWidget::forgetFrom(int index)
{
    while (m_widgets.size() > index)
        delete m_widgets.takeLast();
    wantSlices();
}

void CellListWidget::wantSlices()
{
    if (isVisible() && !isComplete())
        CellSlices::instance().want(this);
}

void CellListWidget::showEvent(QShowEvent* event)
{
    QScrollArea::showEvent(event);
    wantSlices();
}

void CellListWidget::rebuild()
{
    CellSlices::instance().drop(this);
    qDeleteAll(m_widgets);
    m_widgets.clear();
    m_current = 0;
    // On screen, the first screen at once: cells until their height fills the view (or the time
    // is up). A list not shown yet (a file being opened) makes none now (wantSlices).
    QElapsedTimer first;
    first.start();
    int height = 0;
    while (isVisible() && !isComplete() && height < viewport()->height() &&
           first.nsecsElapsed() < kFirstScreenNs) {
        makeNext();
        height += m_widgets.constLast()->sizeHint().height();
    }
    wantSlices();
    m_current = -1;
    setCurrentIndex(0);
}

void CellListWidget::stopMakingIfDone()
{
    if (isComplete() && CellSlices::instance().wants(this)) {
        CellSlices::instance().drop(this);
        emit completed();
    }
}

} // namespace lizard::ui::notebook
