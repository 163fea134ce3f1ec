#include "models/sandboxactions.h"

#include "client/lizardapi.h"
#include "models/sandboxstaterules.h"
#include "models/sandboxtablemodel.h"

namespace lizard::models {

using client::ApiError;

namespace {
template <class T> client::Outcome<T> named(client::Outcome<T> outcome, const QString& what)
{
    if (outcome || !outcome.error().what.isEmpty())
        return outcome;
    ApiError error = outcome.error();
    error.what = what;
    return error;
}

} // namespace

SandboxActions::SandboxActions(client::LizardApi* api, SandboxTableModel* table, QObject* parent)
    : QObject(parent), m_api(api), m_table(table)
{
}

client::PendingCall* SandboxActions::create(const client::CreateSandboxRequest& request,
                                            QObject* ctx, client::Done<client::SandboxInfo> done)
{
    const QString what = QStringLiteral("Create sandbox");
    if (m_api == nullptr) {
        done(ApiError::notConnected(what));
        return nullptr;
    }
    QPointer<SandboxTableModel> table = m_table;
    return m_api->createSandbox(request, ctx, [table, done, what](auto outcome) {
        if (outcome && table)
            table->refresh();
        if (!outcome) {
            done(withLimitDetails(named(std::move(outcome), what).error())); // 429: limit, running
            return;
        }
        done(std::move(outcome));
    });
}

void SandboxActions::kill(const QString& sandboxId, QObject* ctx, client::Done<client::Unit> done)
{
    const QString what = QStringLiteral("Kill sandbox %1").arg(sandboxId);
    if (m_api == nullptr) {
        done(ApiError::notConnected(what));
        return;
    }
    QPointer<SandboxTableModel> table = m_table;
    m_api->killSandbox(sandboxId, ctx, [table, done, what](auto outcome) {
        if (outcome && table)
            table->refresh();
        done(named(std::move(outcome), what));
    });
}

void SandboxActions::extend(const QString& sandboxId, int minutes, QObject* ctx,
                            client::Done<client::Unit> done)
{
    const QString what = QStringLiteral("Extend lifetime of %1").arg(sandboxId);
    if (m_api == nullptr) {
        done(ApiError::notConnected(what));
        return;
    }
    QPointer<SandboxTableModel> table = m_table;
    m_api->setSandboxTimeout(sandboxId, qint64(minutes) * 60000, ctx,
                             [table, done, what](auto outcome) {
                                 if (outcome && table)
                                     table->refresh();
                                 done(named(std::move(outcome), what));
                             });
}

void SandboxActions::setLifecycle(const QString& sandboxId, const QString& onTimeout,
                                  int idlePauseMinutes, QObject* ctx,
                                  client::Done<client::LifecyclePolicy> done)
{
    const QString what = QStringLiteral("Lifecycle policies of %1").arg(sandboxId);
    if (m_api == nullptr) {
        done(ApiError::notConnected(what));
        return;
    }
    QPointer<SandboxTableModel> table = m_table;
    m_api->setLifecycle(sandboxId, onTimeout, idlePauseMinutes, ctx,
                        [table, done, what](auto outcome) {
                            if (outcome && table)
                                table->refresh();
                            done(named(std::move(outcome), what));
                        });
}

bool SandboxActions::busy(const QString& sandboxId) const
{
    return m_table && !m_table->activity(sandboxId).isEmpty();
}

void SandboxActions::setBusy(const QString& sandboxId, const QString& activity)
{
    if (m_table)
        m_table->setActivity(sandboxId, activity);
    emit busyChanged(sandboxId);
}

template <class T, class Call>
void SandboxActions::runLifecycle(const QString& sandboxId, const QString& what,
                                  const QString& activity, QObject* ctx, client::Done<T> done,
                                  Call call, std::function<void(const client::Outcome<T>&)> always)
{
    if (m_api == nullptr) {
        done(ApiError::notConnected(what));
        return;
    }
    setBusy(sandboxId, activity);
    // The call belongs to this object, so the row's activity is cleared even when the caller's
    // context is gone; the caller's callback then does not run.
    const QPointer<QObject> caller = ctx;
    const bool hasCaller = ctx != nullptr;
    QPointer<SandboxActions> self = this;
    call(m_api.data(),
         [self, sandboxId, done, what, caller, hasCaller, always](client::Outcome<T> outcome) {
             if (self) {
                 self->setBusy(sandboxId, {});
                 if (always)
                     always(outcome);
                 if (self->m_table)
                     self->m_table->refresh();
             }
             if (hasCaller && caller.isNull())
                 return;
             if (!outcome) {
                 done(withLimitDetails(named(std::move(outcome), what).error()));
                 return;
             }
             done(std::move(outcome));
         });
}

void SandboxActions::pause(const QString& sandboxId, QObject* ctx, client::Done<client::Unit> done)
{
    runLifecycle<client::Unit>(
        sandboxId, QStringLiteral("Pause sandbox %1").arg(sandboxId), QStringLiteral("pausing…"),
        ctx, std::move(done),
        [&](client::LizardApi* api, auto wrapped) { api->pauseSandbox(sandboxId, this, wrapped); });
}

void SandboxActions::resume(const QString& sandboxId, QObject* ctx, client::Done<client::Unit> done)
{
    runLifecycle<client::Unit>(sandboxId, QStringLiteral("Resume sandbox %1").arg(sandboxId),
                               QStringLiteral("resuming…"), ctx, std::move(done),
                               [&](client::LizardApi* api, auto wrapped) {
                                   api->resumeSandbox(sandboxId, this, wrapped);
                               });
}

void SandboxActions::snapshot(const QString& sandboxId, const QString& name, QObject* ctx,
                              client::Done<client::Snapshot> done)
{
    runLifecycle<client::Snapshot>(
        sandboxId, QStringLiteral("Snapshot sandbox %1").arg(sandboxId),
        QStringLiteral("taking snapshot “%1”…").arg(name), ctx, std::move(done),
        [&](client::LizardApi* api, auto wrapped) {
            api->createSnapshot(sandboxId, name, this, wrapped);
        },
        [this](const client::Outcome<client::Snapshot>& outcome) {
            if (outcome)
                emit snapshotStarted(outcome.value());
        });
}

void SandboxActions::fork(const QString& sandboxId, int count, qint64 timeoutMs, QObject* ctx,
                          client::Done<QList<client::ForkEntry>> done)
{
    // The copies go into the table at once, even when the caller has gone away meanwhile.
    QPointer<SandboxTableModel> table = m_table;
    runLifecycle<QList<client::ForkEntry>>(
        sandboxId, QStringLiteral("Fork sandbox %1").arg(sandboxId),
        count == 1 ? QStringLiteral("forking…") : QStringLiteral("forking ×%1…").arg(count), ctx,
        std::move(done),
        [&](client::LizardApi* api, auto wrapped) {
            api->forkSandbox(sandboxId, count, timeoutMs, this, wrapped);
        },
        [table](const client::Outcome<QList<client::ForkEntry>>& outcome) {
            if (!outcome || !table)
                return;
            QList<client::SandboxInfo> rows = table->sandboxes();
            for (const auto& entry : outcome.value())
                if (entry.sandbox && table->rowOf(entry.sandbox->sandboxId) < 0)
                    rows.append(*entry.sandbox);
            table->applySandboxes(rows);
        });
}

void SandboxActions::list(const QString& projectId, QObject* ctx,
                          client::Done<QList<client::SandboxInfo>> done)
{
    const QString what = QStringLiteral("List sandboxes");
    if (m_api == nullptr) {
        done(ApiError::notConnected(what));
        return;
    }
    m_api->listSandboxes(projectId, ctx,
                         [done, what](auto outcome) { done(named(std::move(outcome), what)); });
}

void SandboxActions::listVolumes(const QString& projectId, QObject* ctx,
                                 client::Done<QList<client::Volume>> done)
{
    const QString what = QStringLiteral("List volumes");
    if (m_api == nullptr) {
        done(ApiError::notConnected(what));
        return;
    }
    m_api->listVolumes(projectId, ctx,
                       [done, what](auto outcome) { done(named(std::move(outcome), what)); });
}

void SandboxActions::listRecipeTemplates(QObject* ctx,
                                         client::Done<QList<client::TemplateInfo>> done)
{
    if (m_api == nullptr)
        return done(QList<client::TemplateInfo>{});
    m_api->listTemplates(ctx, [done](client::Outcome<QList<client::TemplateInfo>> outcome) {
        QList<client::TemplateInfo> usable;
        if (outcome) // a server without them answers 404: nothing to offer
            for (const auto& t : outcome.value())
                if (t.recipe && t.latest)
                    usable.append(t);
        done(usable);
    });
}

void SandboxActions::startDesktop(const QString& sandboxId, QSize size, QObject* ctx,
                                  client::Done<client::DesktopInfo> done)
{
    const QString what = QStringLiteral("Start the desktop of %1").arg(sandboxId);
    if (m_api == nullptr) {
        done(ApiError::notConnected(what));
        return;
    }
    m_api->startDesktop(sandboxId, size, ctx,
                        [done, what](auto outcome) { done(named(std::move(outcome), what)); });
}

} // namespace lizard::models
