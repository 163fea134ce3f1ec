#pragma once
// The longest event-loop stall and where the UI thread was during it. A thread of its own
// posts a tick to the loop 1 ms after the previous one was handled; the stall is the longest
// a tick waited. The kernel's account of the UI thread (/proc/thread-self/schedstat), read when
// the tick is posted and when it is handled, splits that wait: on a CPU (the loop was busy with
// other work), runnable but waiting for a core (the machine's load), or asleep (blocked in a
// call, or an idle loop the wake-up did not reach). That tells a stall the app causes from one
// the machine causes, which the wall clock alone cannot.

#include <QObject>
#include <algorithm>
#include <atomic>
#include <thread>

namespace lizard::bench {

class SchedStallMeter : public QObject
{
public:
    struct Wait
    {
        double ms = 0;         // from the tick being posted to it being handled
        double cpuMs = 0;      // meanwhile the UI thread ran (other work of the loop)
        double runqueueMs = 0; // it was runnable and waited for a core
        double sleptMs() const { return std::max(0.0, ms - cpuMs - runqueueMs); }
    };

    SchedStallMeter() = default;
    ~SchedStallMeter() override;
    // Call on the thread to measure (the UI thread). False if the kernel keeps no schedstat:
    // then only the waits' lengths are measured.
    bool start();
    void stop();
    bool hasSchedstat() const { return m_hasSchedstat; }
    const Wait& longest() const { return m_longest; }
    int waitsOver50ms() const { return m_over50; }
    // The UI thread's longest stretch on a CPU between two handled ticks (its own work).
    double longestBurstMs() const { return m_burstNs / 1e6; }

private:
    bool read(qint64* cpuNs, qint64* waitNs) const;
    void tick();

    std::thread m_pinger;
    std::atomic<bool> m_running{false};
    std::atomic<bool> m_pending{false};
    std::atomic<qint64> m_postedNs{0}; // CLOCK_MONOTONIC, and the UI thread's schedstat then
    std::atomic<qint64> m_postedCpu{0};
    std::atomic<qint64> m_postedWait{0};
    int m_fd = -1;
    bool m_hasSchedstat = false;
    qint64 m_lastCpu = 0; // at the last handled tick
    qint64 m_burstNs = 0;
    Wait m_longest;
    int m_over50 = 0;
};

} // namespace lizard::bench
