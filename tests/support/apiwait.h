#pragma once
// Awaiting one asynchronous LizardApi call in a test or a benchmark, in two forms:
//   ApiWaiter<T> w; api.getSandbox(id, ctx, w.done()); QVERIFY(w.wait());  // an object
//   auto outcome = waitFor<T>([&](QObject* ctx, auto done) { api.getSandbox(id, ctx, done); });
// Both wait with support/wait.h's waitUntil.

#include "client/lizardapi.h"
#include "wait.h" // beside this file: bench/ includes it as tests/support/apiwait.h

#include <QDebug>
#include <QObject>
#include <memory>
#include <optional>

namespace lizard::test {

// Holds the outcome of one call. The slot outlives the wait, so a late callback after a
// failed wait is harmless.
template <class T> class ApiWaiter
{
public:
    client::LizardApi::Done<T> done()
    {
        auto slot = m_slot;
        return [slot](client::Outcome<T> o) { slot->emplace(std::move(o)); };
    }
    bool wait(int timeoutMs = 60000)
    {
        return waitUntil([this] { return m_slot->has_value(); }, timeoutMs);
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
    std::shared_ptr<std::optional<client::Outcome<T>>> m_slot =
        std::make_shared<std::optional<client::Outcome<T>>>();
};

// `call(ctx, done)` starts the call; returns the outcome, or nullopt after `timeoutMs`. The
// context object ends with the wait, so an answer after it is dropped.
template <class T, class Call>
std::optional<client::Outcome<T>> waitFor(Call call, int timeoutMs = 60000)
{
    std::optional<client::Outcome<T>> result;
    QObject ctx;
    call(&ctx, [&result](client::Outcome<T> outcome) { result.emplace(std::move(outcome)); });
    waitUntil([&result] { return result.has_value(); }, timeoutMs);
    return result;
}

inline QString describe(const client::ApiError& e)
{
    return e.toDisplayString();
}

// Creates a sandbox as `req` asks and waits for it: its id, or empty with the reason in *why
// ("HTTP 503: ..." on a host without sandboxes, as LIZ_REQUIRE_SANDBOX expects).
inline QString startSandbox(client::LizardApi& api, const client::CreateSandboxRequest& req,
                            QString* why)
{
    const auto created = waitFor<client::SandboxInfo>(
        [&](QObject* ctx, auto done) { return api.createSandbox(req, ctx, done); }, 300000);
    if (created && created->ok())
        return created->value().sandboxId;
    if (!created)
        *why = QStringLiteral("no answer to the create in time");
    else if (created->error().httpStatus > 0)
        *why = QStringLiteral("HTTP %1: %2")
                   .arg(created->error().httpStatus)
                   .arg(describe(created->error()));
    else
        *why = describe(created->error());
    return {};
}

// The same for a sandbox in `projectId` that lives `lifetimeMs`.
inline QString startSandbox(client::LizardApi& api, const QString& projectId, int lifetimeMs,
                            QString* why)
{
    client::CreateSandboxRequest req;
    req.projectId = projectId;
    req.timeoutMs = lifetimeMs;
    return startSandbox(api, req, why);
}

// Kills a sandbox and waits for the answer; for cleanups, so a failure is only reported.
inline void killSandbox(client::LizardApi& api, const QString& id)
{
    const auto killed = waitFor<client::Unit>(
        [&](QObject* ctx, auto done) { return api.killSandbox(id, ctx, done); }, 30000);
    if (!killed || !killed->ok())
        qWarning().noquote() << "killing" << id << "failed:"
                             << (killed ? describe(killed->error())
                                        : QStringLiteral("no answer in time"));
}

} // namespace lizard::test

// Waits for the waiter's answer and fails the test unless it is a success.
#define LIZ_AWAIT_OK(waiter) QVERIFY2((waiter).wait() && (waiter).ok(), (waiter).why().constData())
