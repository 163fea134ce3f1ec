#include "schedstallmeter.h"

#include <QMetaObject>
#include <cstdio>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

namespace lizard::bench {

namespace {

qint64 monotonicNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

} // namespace

SchedStallMeter::~SchedStallMeter()
{
    stop();
    if (m_fd >= 0)
        ::close(m_fd);
}

bool SchedStallMeter::read(qint64* cpuNs, qint64* waitNs) const
{
    // "<ns on a cpu> <ns waiting on a run queue> <timeslices>"; pread at 0 reads it afresh,
    // from whichever thread (the fd names the UI thread's file).
    char buf[96];
    const ssize_t n = ::pread(m_fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    long long cpu = 0;
    long long wait = 0;
    if (std::sscanf(buf, "%lld %lld", &cpu, &wait) != 2)
        return false;
    *cpuNs = cpu;
    *waitNs = wait;
    return true;
}

bool SchedStallMeter::start()
{
    stop();
    if (m_fd < 0)
        m_fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    qint64 wait = 0;
    m_hasSchedstat = m_fd >= 0 && read(&m_lastCpu, &wait);
    m_longest = {};
    m_over50 = 0;
    m_burstNs = 0;
    m_pending = false;
    m_running = true;
    m_pinger = std::thread([this] {
        const timespec period{0, 1000000};
        while (m_running.load()) {
            clock_nanosleep(CLOCK_MONOTONIC, 0, &period, nullptr);
            if (m_pending.load())
                continue; // the last tick still waits: that wait is what is measured
            qint64 cpu = 0;
            qint64 queued = 0; // waiting for a core
            if (m_hasSchedstat)
                read(&cpu, &queued);
            m_postedCpu = cpu;
            m_postedWait = queued;
            m_postedNs = monotonicNs();
            m_pending = true;
            QMetaObject::invokeMethod(
                this, [this] { tick(); }, Qt::QueuedConnection);
        }
    });
    return m_hasSchedstat;
}

void SchedStallMeter::stop()
{
    m_running = false;
    if (m_pinger.joinable())
        m_pinger.join();
}

void SchedStallMeter::tick()
{
    const qint64 now = monotonicNs();
    qint64 cpu = 0;
    qint64 wait = 0;
    if (m_hasSchedstat && !read(&cpu, &wait))
        m_hasSchedstat = false;
    const double ms = (now - m_postedNs.load()) / 1e6;
    m_pending = false;
    if (!m_running.load())
        return; // posted just before stop()
    m_over50 += ms > 50 ? 1 : 0;
    if (m_hasSchedstat) {
        m_burstNs = std::max(m_burstNs, cpu - m_lastCpu);
        m_lastCpu = cpu;
    }
    // The kernel adds a run-queue wait when the wait ends, so one that began just before the
    // post counts whole: no part is reported longer than the wait itself.
    if (ms > m_longest.ms)
        m_longest = {ms, m_hasSchedstat ? std::min(ms, (cpu - m_postedCpu.load()) / 1e6) : 0,
                     m_hasSchedstat ? std::min(ms, (wait - m_postedWait.load()) / 1e6) : 0};
}

} // namespace lizard::bench
