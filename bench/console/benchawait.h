#pragma once
// For the Qt benchmark programs: wait (running the event loop) for one LizardApi call.

#include "client/lizardapi.h"

#include <QCoreApplication>

namespace lizard::bench {

// call(ctx, done) starts the call; the value lands in *out, or the error text in *failure.
template <class T, class Call>
bool await(Call call, T* out, QString* failure)
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
