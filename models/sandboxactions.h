#pragma once
// What the UI may do to sandboxes: create, kill, extend the lifetime. Results come back as
// Outcome values to a callback (never exceptions); after a change the table refreshes.

#include "client/lizardapi.h"

#include <QObject>
#include <QPointer>

namespace lizard::models {

class SandboxTableModel;

class SandboxActions : public QObject
{
    Q_OBJECT
public:
    SandboxActions(client::LizardApi* api, SandboxTableModel* table, QObject* parent = nullptr);

    // The returned call can be cancelled (e.g. the create dialog's Cancel button).
    client::PendingCall* create(const client::CreateSandboxRequest& request, QObject* ctx,
                                client::LizardApi::Done<client::SandboxInfo> done);
    void kill(const QString& sandboxId, QObject* ctx, client::LizardApi::Done<client::Unit> done);
    // New deadline = now + minutes.
    void extend(const QString& sandboxId, int minutes, QObject* ctx,
                client::LizardApi::Done<client::Unit> done);

    client::LizardApi* api() const { return m_api; }

private:
    QPointer<client::LizardApi> m_api;
    QPointer<SandboxTableModel> m_table;
};

} // namespace lizard::models
