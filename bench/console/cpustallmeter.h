#pragma once
// The UI thread's own work between two ticks of a 1 ms timer (its CPU time,
// CLOCK_THREAD_CPUTIME_ID): unlike the wall-clock gap (StallMeter) it does not count the time the
// thread waited for a core, which on a loaded machine (2 cores shared by many builds) dwarfs the
// work itself. Printed beside a stall, it tells the app's work from the machine's.

#include <QObject>
#include <QTimer>
#include <algorithm>
#include <ctime>

namespace lizard::bench {

class CpuStallMeter : public QObject
{
public:
    CpuStallMeter()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = threadCpuNs();
            m_maxNs = std::max(m_maxNs, now - m_last);
            m_last = now;
        });
    }
    void start()
    {
        m_last = threadCpuNs();
        m_maxNs = 0;
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    double maxMs() const { return m_maxNs / 1e6; }

private:
    static qint64 threadCpuNs()
    {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
    }
    QTimer m_timer;
    qint64 m_last = 0;
    qint64 m_maxNs = 0;
};

} // namespace lizard::bench
