#include "ui/notebook/interactiveviewpool.h"

#include "ui/notebook/interactiveoutputview.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QScrollBar>
#include <QTimer>
#include <algorithm>

namespace lizard::ui::notebook {

InteractiveViewPool* InteractiveViewPool::instance()
{
    static QPointer<InteractiveViewPool> pool;
    if (!pool)
        pool = new InteractiveViewPool(QCoreApplication::instance());
    return pool;
}

InteractiveViewPool::InteractiveViewPool(QObject* parent)
    : QObject(parent), m_timer(new QTimer(this))
{
    // Scrolling fires many times a frame; one look after the burst is enough.
    m_timer->setSingleShot(true);
    m_timer->setInterval(30);
    connect(m_timer, &QTimer::timeout, this, &InteractiveViewPool::check);
}

void InteractiveViewPool::add(InteractiveOutputView* view)
{
    m_views.append(view);
    scheduleCheck();
}

void InteractiveViewPool::remove(InteractiveOutputView* view)
{
    m_views.removeAll(view);
    scheduleCheck();
}

void InteractiveViewPool::scheduleCheck()
{
    if (!m_timer->isActive())
        m_timer->start();
}

int InteractiveViewPool::liveCount() const
{
    return int(std::count_if(m_views.begin(), m_views.end(),
                             [](auto* v) { return v->webView() != nullptr; }));
}

void InteractiveViewPool::follow(QAbstractScrollArea* area)
{
    for (const auto& followed : m_followed) {
        if (followed == area)
            return;
    }
    m_followed.removeAll(nullptr);
    m_followed.append(area);
    for (QScrollBar* bar : {area->verticalScrollBar(), area->horizontalScrollBar()}) {
        connect(bar, &QScrollBar::valueChanged, this, &InteractiveViewPool::scheduleCheck);
        connect(bar, &QScrollBar::rangeChanged, this, &InteractiveViewPool::scheduleCheck);
    }
}

int InteractiveViewPool::distance(InteractiveOutputView* view)
{
    if (!view->isVisible())
        return -1;
    QWidget* ancestor = view->parentWidget();
    QAbstractScrollArea* area = nullptr;
    for (; ancestor && !area; ancestor = ancestor->parentWidget())
        area = qobject_cast<QAbstractScrollArea*>(ancestor);
    if (!area)
        return 0; // not in a scroll area: shown means on screen
    follow(area);
    QWidget* viewport = area->viewport();
    const QRect rect(view->mapTo(viewport, QPoint(0, 0)), view->size());
    const QRect screen = viewport->rect();
    if (rect.intersects(screen))
        return 0;
    if (rect.bottom() < screen.top())
        return screen.top() - rect.bottom();
    return rect.top() - screen.bottom();
}

void InteractiveViewPool::check()
{
    struct Candidate
    {
        InteractiveOutputView* view;
        int distance;
    };
    QList<Candidate> near;
    QList<InteractiveOutputView*> far;
    for (InteractiveOutputView* view : m_views) {
        const int d = distance(view);
        // Within one screen (of its own scroll area) above or below: made before it scrolls in.
        const int margin = view->window() ? view->window()->height() : 0;
        if (d < 0 || d > margin)
            far.append(view);
        else
            near.append({view, d});
    }
    std::stable_sort(near.begin(), near.end(), [](const Candidate& a, const Candidate& b) {
        return a.distance < b.distance;
    });
    for (int i = kMaxLive; i < near.size(); ++i)
        far.append(near[i].view);
    near = near.mid(0, kMaxLive);
    // Drop first, then make: the number alive never exceeds the cap.
    for (InteractiveOutputView* view : far)
        view->detach();
    for (const Candidate& c : near)
        c.view->attach();
}

} // namespace lizard::ui::notebook
