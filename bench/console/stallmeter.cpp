#include "stallmeter.h"

namespace lizard::bench {

StallMeter::StallMeter(QObject* parent) : QObject(parent)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(1);
    connect(&m_timer, &QTimer::timeout, this, &StallMeter::tick);
}

void StallMeter::start()
{
    m_clock.start();
    m_last = 0;
    m_maxNs = 0;
    m_ticks = 0;
    m_timer.start();
}

void StallMeter::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    // A tick is due every 1 ms: anything longer than that was the loop being busy.
    m_maxNs = qMax(m_maxNs, now - m_last - 1000000);
    m_last = now;
    ++m_ticks;
}

} // namespace lizard::bench
