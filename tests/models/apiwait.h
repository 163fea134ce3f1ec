#pragma once
// Test helper: run one asynchronous LizardApi call and wait for its Outcome.

#include "client/lizardapi.h"

#include <QCoreApplication>
#include <QDeadlineTimer>

#include <optional>

namespace lizard::test {

// `call(ctx, done)` starts the call; returns the outcome, or nullopt after `timeoutMs`.
template <class T, class Call>
std::optional<client::Outcome<T>> waitFor(Call call, int timeoutMs = 60000)
{
    std::optional<client::Outcome<T>> result;
    QObject ctx;
    call(&ctx, [&result](client::Outcome<T> outcome) { result.emplace(std::move(outcome)); });
    QDeadlineTimer deadline(timeoutMs);
    while (!result && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    return result;
}

inline QString describe(const client::ApiError& e) { return e.toDisplayString(); }

} // namespace lizard::test
