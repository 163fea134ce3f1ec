#pragma once
// Decides which interactive outputs have a live web view: those on screen or within one
// screen of it, nearest first, at most kMaxLive at a time (each holds a Chromium renderer of
// tens of MB). The others are dropped, and made again when scrolled back. It looks again when
// an output shows, hides or resizes, or when its scroll area scrolls or changes length.

#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>

class QAbstractScrollArea;
class QTimer;

namespace lizard::ui::notebook {

class InteractiveOutputView;

class InteractiveViewPool : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxLive = 6;

    static InteractiveViewPool* instance();

    void add(InteractiveOutputView* view);
    void remove(InteractiveOutputView* view);
    void scheduleCheck();
    int liveCount() const;

private:
    explicit InteractiveViewPool(QObject* parent);
    void check();
    // How far `view` is from its viewport in pixels (0: on screen); -1 when not shown at all.
    int distance(InteractiveOutputView* view);
    void follow(QAbstractScrollArea* area);

    QList<InteractiveOutputView*> m_views;
    QList<QPointer<QAbstractScrollArea>> m_followed;
    QTimer* m_timer;
};

} // namespace lizard::ui::notebook
