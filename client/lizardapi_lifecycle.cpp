// LizardApi: pause, resume, lifecycle policies, snapshots and fork.
#include "client/apicall.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"

namespace lizard::client {

using namespace apicall;

namespace {
constexpr long kSnapshotTimeoutMs = 11 * 60000; // the SDK's SNAPSHOT_TIMEOUT_MS
constexpr long kForkTimeoutMs = 600000;         // up to 100 copies
} // namespace

PendingCall* LizardApi::pauseSandbox(const QString& id, QObject* ctx, Done<Unit> done)
{
    return startCall<Unit>(m_multi.get(),
                           RequestBuilder(m_endpoint).json("POST", sandboxPath(id, "/pause")),
                           tr("Pause sandbox"), ctx, std::move(done), noValue);
}

PendingCall* LizardApi::resumeSandbox(const QString& id, QObject* ctx, Done<Unit> done)
{
    return startCall<Unit>(m_multi.get(),
                           RequestBuilder(m_endpoint).json("POST", sandboxPath(id, "/resume")),
                           tr("Resume sandbox"), ctx, std::move(done), noValue);
}

PendingCall* LizardApi::setLifecycle(const QString& id, const QString& onTimeout,
                                     int idlePauseMinutes, QObject* ctx, Done<LifecyclePolicy> done)
{
    const auto req = RequestBuilder(m_endpoint)
                         .json("PATCH", sandboxPath(id, "/lifecycle"),
                               lifecycleBody(onTimeout, idlePauseMinutes));
    return startCall<LifecyclePolicy>(m_multi.get(), req, tr("Set lifecycle policies"), ctx,
                                      std::move(done), parseLifecyclePolicy);
}

PendingCall* LizardApi::createSnapshot(const QString& sandboxId, const QString& name, QObject* ctx,
                                       Done<Snapshot> done)
{
    auto req = RequestBuilder(m_endpoint)
                   .json("POST", sandboxPath(sandboxId, "/snapshot"), snapshotBody(name));
    req.timeoutMs = kSnapshotTimeoutMs;
    return startCall<Snapshot>(m_multi.get(), req, tr("Snapshot sandbox"), ctx, std::move(done),
                               parseSnapshot);
}

PendingCall* LizardApi::listSnapshots(const QString& projectId, QObject* ctx,
                                      Done<QList<Snapshot>> done)
{
    const auto req =
        RequestBuilder(m_endpoint).json("GET", "/api/projects/" + seg(projectId) + "/snapshots");
    return startCall<QList<Snapshot>>(m_multi.get(), req, tr("List snapshots"), ctx,
                                      std::move(done), parseSnapshots);
}

PendingCall* LizardApi::listAllSnapshots(QObject* ctx, Done<QList<Snapshot>> done)
{
    return startCall<QList<Snapshot>>(
        m_multi.get(), RequestBuilder(m_endpoint).json("GET", "/api/sandbox-snapshots"),
        tr("List snapshots"), ctx, std::move(done), parseSnapshots);
}

PendingCall* LizardApi::getSnapshot(const QString& snapshotId, QObject* ctx, Done<Snapshot> done)
{
    const auto req =
        RequestBuilder(m_endpoint).json("GET", "/api/sandbox-snapshots/" + seg(snapshotId));
    return startCall<Snapshot>(m_multi.get(), req, tr("Get snapshot"), ctx, std::move(done),
                               parseSnapshot);
}

PendingCall* LizardApi::deleteSnapshot(const QString& snapshotId, QObject* ctx, Done<Unit> done)
{
    const auto req =
        RequestBuilder(m_endpoint).json("DELETE", "/api/sandbox-snapshots/" + seg(snapshotId));
    return startCall<Unit>(m_multi.get(), req, tr("Delete snapshot"), ctx, std::move(done),
                           noValue);
}

PendingCall* LizardApi::forkSandbox(const QString& id, int count, qint64 timeoutMs, QObject* ctx,
                                    Done<QList<ForkEntry>> done)
{
    auto req = RequestBuilder(m_endpoint)
                   .json("POST", sandboxPath(id, "/fork"), forkBody(count, timeoutMs));
    req.timeoutMs = kForkTimeoutMs;
    return startCall<QList<ForkEntry>>(m_multi.get(), req, tr("Fork sandbox"), ctx, std::move(done),
                                       parseForkEntries);
}

} // namespace lizard::client
