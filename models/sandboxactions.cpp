#include "models/sandboxactions.h"

#include "models/sandboxtablemodel.h"

namespace lizard::models {

using client::ApiError;

namespace {
template <class T>
client::Outcome<T> named(client::Outcome<T> outcome, const QString& what)
{
    if (outcome || !outcome.error().what.isEmpty())
        return outcome;
    ApiError error = outcome.error();
    error.what = what;
    return error;
}

ApiError noConnection(const QString& what)
{
    ApiError error;
    error.kind = ApiError::Kind::Network;
    error.message = QStringLiteral("not connected");
    error.what = what;
    return error;
}
} // namespace

SandboxActions::SandboxActions(client::LizardApi* api, SandboxTableModel* table, QObject* parent)
    : QObject(parent), m_api(api), m_table(table)
{}

client::PendingCall* SandboxActions::create(const client::CreateSandboxRequest& request, QObject* ctx,
                                            client::LizardApi::Done<client::SandboxInfo> done)
{
    const QString what = QStringLiteral("Create sandbox");
    if (m_api == nullptr) {
        done(noConnection(what));
        return nullptr;
    }
    QPointer<SandboxTableModel> table = m_table;
    return m_api->createSandbox(request, ctx, [table, done, what](auto outcome) {
        if (outcome && table)
            table->refresh();
        done(named(std::move(outcome), what));
    });
}

void SandboxActions::kill(const QString& sandboxId, QObject* ctx, client::LizardApi::Done<client::Unit> done)
{
    const QString what = QStringLiteral("Kill sandbox %1").arg(sandboxId);
    if (m_api == nullptr) {
        done(noConnection(what));
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
                            client::LizardApi::Done<client::Unit> done)
{
    const QString what = QStringLiteral("Extend lifetime of %1").arg(sandboxId);
    if (m_api == nullptr) {
        done(noConnection(what));
        return;
    }
    QPointer<SandboxTableModel> table = m_table;
    m_api->setSandboxTimeout(sandboxId, qint64(minutes) * 60000, ctx, [table, done, what](auto outcome) {
        if (outcome && table)
            table->refresh();
        done(named(std::move(outcome), what));
    });
}

} // namespace lizard::models
