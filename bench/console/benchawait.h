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

} // namespace lizard::bench
