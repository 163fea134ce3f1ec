#pragma once
// What the UI may do to sandboxes: create, kill, extend the lifetime, pause, resume,
// snapshot, fork. Results come back as
// Outcome values to a callback (never exceptions); after a change the table refreshes.

#include "client/lizardapi.h"

#include <QObject>
#include <QPointer>
#include <functional>

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

    // Lifecycle. While one runs, the sandbox's row says so ("pausing…") and busy()
    // is true; the table refreshes when it ends. Errors of 429 carry limit and running count.
    void pause(const QString& sandboxId, QObject* ctx, client::LizardApi::Done<client::Unit> done);
    void resume(const QString& sandboxId, QObject* ctx, client::LizardApi::Done<client::Unit> done);
    void snapshot(const QString& sandboxId, const QString& name, QObject* ctx,
                  client::LizardApi::Done<client::Snapshot> done);
    // The copies are added to the table at once (before the next poll).
    void fork(const QString& sandboxId, int count, qint64 timeoutMs, QObject* ctx,
              client::LizardApi::Done<QList<client::ForkEntry>> done);
    bool busy(const QString& sandboxId) const;

    client::LizardApi* api() const { return m_api; }

signals:
    void busyChanged(const QString& sandboxId);
    void snapshotStarted(const lizard::client::Snapshot& snapshot);

private:
    // Marks the sandbox busy with `activity`, runs call(api, wrappedDone); when it ends: unmarks,
    // runs `always` (even if ctx is gone), refreshes the table, then done (unless ctx is gone).
    template <class T, class Call>
    void runLifecycle(const QString& sandboxId, const QString& what, const QString& activity,
                      QObject* ctx, client::LizardApi::Done<T> done, Call call,
                      std::function<void(const client::Outcome<T>&)> always = {});
    void setBusy(const QString& sandboxId, const QString& activity);

    QPointer<client::LizardApi> m_api;
    QPointer<SandboxTableModel> m_table;
};

} // namespace lizard::models
