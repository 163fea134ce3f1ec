#pragma once
// Test helper: waits (spinning the event loop) for one LizardApi callback. The slot outlives
// the wait, so a late callback after a failed wait is harmless.

#include "client/lizardapi.h"

#include <QCoreApplication>
#include <QDeadlineTimer>

#include <memory>
#include <optional>

namespace lizard::test {

template <class T>
class ApiWaiter
{
public:
    client::LizardApi::Done<T> done()
    {
        auto slot = m_slot;
        return [slot](client::Outcome<T> o) { slot->emplace(std::move(o)); };
    }
    bool wait(int timeoutMs = 60000)
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!m_slot->has_value() && !deadline.hasExpired())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        return m_slot->has_value();
    }
    bool arrived() const { return m_slot->has_value(); }
    bool ok() const { return m_slot->has_value() && (*m_slot)->ok(); }
    const T& value() const { return (*m_slot)->value(); }
    const client::ApiError& error() const { return (*m_slot)->error(); }
    // For QVERIFY2: what went wrong, if anything.
    QByteArray why() const
    {
        if (!m_slot->has_value())
            return "no answer in time";
        return (*m_slot)->ok() ? QByteArray("ok") : (*m_slot)->error().toDisplayString().toUtf8();
    }

private:
    std::shared_ptr<std::optional<client::Outcome<T>>> m_slot = std::make_shared<std::optional<client::Outcome<T>>>();
};

} // namespace lizard::test

// Waits for the waiter's answer and fails the test unless it is a success.
#define LIZ_AWAIT_OK(waiter) QVERIFY2((waiter).wait() && (waiter).ok(), (waiter).why().constData())
