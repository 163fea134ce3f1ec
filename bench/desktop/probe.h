#pragma once
// What the desktop bench sees and spends: grabs of a viewer widget polled on the event loop
// (their cost counted), tests on those grabs, and the CPU time of this process and its
// descendants (QtWebEngine's renderer and GPU processes) from /proc. Waits are benchawait.h's
// runFor/runUntil, which sleep in the event loop (a busy loop would make the CPU figure a lie).

#include <QElapsedTimer>
#include <QImage>
#include <functional>

class QWidget;

namespace lizard::bench {

// Milliseconds since `t` started, with sub-millisecond precision.
double msOf(const QElapsedTimer& t);

class GrabPoller
{
public:
    explicit GrabPoller(QWidget* widget) : m_widget(widget) {}
    QImage grab();
    // Grabs every `intervalMs` (or as fast as grabs go) until test(grab) holds; the time of
    // that grab since `since`, or -1 after `timeoutMs`.
    double pollUntil(const QElapsedTimer& since, const std::function<bool(const QImage&)>& test,
                     int timeoutMs, int intervalMs);
    QImage last() const { return m_last; } // the latest grab
    double meanGrabMs() const { return m_grabs ? m_grabMs / m_grabs : 0; }
    int grabs() const { return m_grabs; }

private:
    QWidget* m_widget;
    QImage m_last;
    double m_grabMs = 0;
    int m_grabs = 0;
};

// The desktop's root window is pure black; the viewers' own backgrounds are not.
bool centreShowsDesktop(const QImage& grab);
// The black screen's rectangle in a grab, found from near the centre outwards.
QRect desktopRect(const QImage& grab);
// Whether `region` of `grab` differs visibly from `before` (a grab of the same region).
bool regionChanged(const QImage& grab, const QRect& region, const QImage& before);

// CPU time (user + system) of this process and all its descendants, in milliseconds.
double treeCpuMs();

} // namespace lizard::bench
