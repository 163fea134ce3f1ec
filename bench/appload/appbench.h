#pragma once
// lizard-bench-appload's two figures; each prints its lines and returns 0, or 1 when the
// figure could not be measured.

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace lizard::bench {

// The largest gap between the ticks of a 1 ms timer on the UI thread: the longest time the
// thread was busy with anything else (the gap includes the 1 ms itself).
class GapMeter : public QObject
{
public:
    GapMeter()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            m_maxNs = qMax(m_maxNs, now - m_last);
            m_last = now;
        });
    }
    void start()
    {
        m_clock.start();
        m_last = 0;
        m_maxNs = 0;
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    double maxGapMs() const { return m_maxNs / 1e6; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_maxNs = 0;
};

int runAutosaveBench(int megabytes, int writes);
int runSpillBench(qint64 megabytes, bool quick);

// Resident memory of this process, in bytes (VmRSS); -1 when unknown.
qint64 residentBytes();

} // namespace lizard::bench
