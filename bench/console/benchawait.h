#pragma once
// For the Qt benchmark programs: run the event loop until something holds, or for a while, and
// wait (running it) for one LizardApi call.

#include "client/lizardapi.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <functional>

namespace lizard::bench {

// Runs the event loop until until() holds (true) or timeoutMs passed (false), woken at least
// every wakeMs to ask. It sleeps like an application's event loop: processEvents(flags, maxtime)
// ignores WaitForMoreEvents, so a loop around it polls without ever sleeping, keeps the UI thread
// on a CPU, and on a loaded machine the scheduler makes such a thread wait for a core: the bench
// would then measure its own cost.
inline bool runUntil(const std::function<bool()>& until, int timeoutMs, int wakeMs = 10)
{
    QElapsedTimer t;
    t.start();
    QTimer wake;
    wake.start(wakeMs);
    while (!until()) {
        if (t.elapsed() >= timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    return true;
}

// Runs the event loop for ms milliseconds, asleep unless an event comes.
inline void runFor(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

// call(ctx, done) starts the call; the value lands in *out, or the error text in *failure.
template <class T, class Call> bool await(Call call, T* out, QString* failure)
{
    bool done = false;
    QObject ctx;
    call(&ctx, [&](client::Outcome<T> o) {
        if (o)
            *out = o.value();
        else
            *failure = o.error().toDisplayString();
        done = true;
    });
    while (!done)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    return failure->isEmpty();
}

// A sandbox of the default template in the server's first project, running.
inline bool createBenchSandbox(client::LizardApi& api, client::SandboxInfo* sandbox,
                               QString* failure)
{
    QList<client::Project> projects;
    if (!await<QList<client::Project>>(
            [&](QObject* c, auto done) { return api.listProjects(c, done); }, &projects, failure))
        return false;
    if (projects.isEmpty()) {
        *failure = QStringLiteral("the server has no project");
        return false;
    }
    client::CreateSandboxRequest req;
    req.projectId = projects.first().id;
    return await<client::SandboxInfo>(
        [&](QObject* c, auto done) { return api.createSandbox(req, c, done); }, sandbox, failure);
}

} // namespace lizard::bench
