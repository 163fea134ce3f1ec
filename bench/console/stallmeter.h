#pragma once
// Measures event-loop responsiveness: a 1 ms timer records the longest gap between its
// ticks (the longest time the loop was busy with something else).

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace lizard::bench {

class StallMeter : public QObject
{
    Q_OBJECT
public:
    explicit StallMeter(QObject* parent = nullptr);
    void start();
    void stop() { m_timer.stop(); }
    double maxStallMs() const { return m_maxNs / 1e6; }
    qint64 ticks() const { return m_ticks; }

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_maxNs = 0;
    qint64 m_ticks = 0;
};

} // namespace lizard::bench
