#pragma once
// Waiting in tests and benchmarks: "until X, or give up after a time", with the event loop
// running meanwhile (so answers of asynchronous calls, signals and timers arrive). Header
// only and QtCore only, so the Qt benchmarks in bench/ use it too.

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QTimer>
#include <functional>

namespace lizard::test {

// Runs the event loop until done() or timeoutMs passed; returns done(). It sleeps until an
// event comes, so an answer is seen at once and an idle wait costs no CPU; a condition that
// no event announces (a file, a process, a blocking HTTP request in done()) is checked every
// pollMs.
inline bool waitUntil(const std::function<bool()>& done, int timeoutMs, int pollMs = 20)
{
    const QDeadlineTimer deadline(timeoutMs);
    QTimer tick; // wakes the loop for the next check and for the deadline
    tick.start(pollMs);
    QEventLoop loop;
    while (!done()) {
        if (deadline.hasExpired())
            return done();
        loop.processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    return true;
}

} // namespace lizard::test
