#pragma once
// What the UI may do to sandboxes: create, kill, extend the lifetime, pause, resume,
// snapshot, fork, start its desktop. Results come back as
// Outcome values to a callback (never exceptions); after a change the table refreshes.

#include "client/outcome.h"
#include "client/pendingcall.h"
#include "client/templatetypes.h"

#include <QObject>
#include <QPointer>
#include <QSize>
#include <functional>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class SandboxTableModel;

class SandboxActions : public QObject
{
    Q_OBJECT
public:
    SandboxActions(client::LizardApi* api, SandboxTableModel* table, QObject* parent = nullptr);

    // The returned call can be cancelled (e.g. the create dialog's Cancel button).
    client::PendingCall* create(const client::CreateSandboxRequest& request, QObject* ctx,
                                client::Done<client::SandboxInfo> done);
    void kill(const QString& sandboxId, QObject* ctx, client::Done<client::Unit> done);
    // New deadline = now + minutes.
    void extend(const QString& sandboxId, int minutes, QObject* ctx,
                client::Done<client::Unit> done);
    // The lifecycle policies (lizard-local): onTimeout "kill" or "pause", idlePauseMinutes
    // 0 (never) or more; empty / negative: left as they are.
    void setLifecycle(const QString& sandboxId, const QString& onTimeout, int idlePauseMinutes,
                      QObject* ctx, client::Done<client::LifecyclePolicy> done);

    // Lifecycle. While one runs, the sandbox's row says so ("pausing…") and busy()
    // is true; the table refreshes when it ends. Errors of 429 carry limit and running count.
    void pause(const QString& sandboxId, QObject* ctx, client::Done<client::Unit> done);
    void resume(const QString& sandboxId, QObject* ctx, client::Done<client::Unit> done);
    void snapshot(const QString& sandboxId, const QString& name, QObject* ctx,
                  client::Done<client::Snapshot> done);
    // The copies are added to the table at once (before the next poll).
    void fork(const QString& sandboxId, int count, qint64 timeoutMs, QObject* ctx,
              client::Done<QList<client::ForkEntry>> done);
    bool busy(const QString& sandboxId) const;

    // The project's sandboxes, listed now (the table keeps its own, polled list).
    void list(const QString& projectId, QObject* ctx,
              client::Done<QList<client::SandboxInfo>> done);
    // The project's volumes, for the create dialog's "mount a volume" choice.
    void listVolumes(const QString& projectId, QObject* ctx,
                     client::Done<QList<client::Volume>> done);
    // The templates built from recipes that a create may name (lizard-local; the cloud has
    // none: an empty list), for the create dialog's template choice.
    void listRecipeTemplates(QObject* ctx, client::Done<QList<client::TemplateInfo>> done);
    // Starts the screen of a desktop sandbox (idempotent); `size` invalid: the server's default.
    void startDesktop(const QString& sandboxId, QSize size, QObject* ctx,
                      client::Done<client::DesktopInfo> done);

signals:
    void busyChanged(const QString& sandboxId);
    void snapshotStarted(const lizard::client::Snapshot& snapshot);

private:
    // Marks the sandbox busy with `activity`, runs call(api, wrappedDone); when it ends: unmarks,
    // runs `always` (even if ctx is gone), refreshes the table, then done (unless ctx is gone).
    template <class T, class Call>
    void runLifecycle(const QString& sandboxId, const QString& what, const QString& activity,
                      QObject* ctx, client::Done<T> done, Call call,
                      std::function<void(const client::Outcome<T>&)> always = {});
    void setBusy(const QString& sandboxId, const QString& activity);

    QPointer<client::LizardApi> m_api;
    QPointer<SandboxTableModel> m_table;
};

} // namespace lizard::models
