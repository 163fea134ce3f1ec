// JSON of the lifecycle calls: snapshots, fork answers and the lifecycle policies.
#include "client/jsonhelpers.h"
#include "client/jsonmapping.h"

namespace lizard::client {

using namespace jsonhelpers;

namespace {

Snapshot snapshot(const Json& j)
{
    const JsonReader r(j, QStringLiteral("snapshot"));
    Snapshot s;
    s.id = r.requiredString("id");
    s.name = r.string("name");
    s.projectId = r.string("projectId");
    s.workspaceId = r.string("workspaceId");
    s.region = r.string("region");
    s.sourceSandboxId = r.string("sourceSandboxId");
    s.status = r.string("status");
    s.error = r.string("error");
    s.createdBy = r.string("createdBy");
    s.poolSize = int(r.integer("poolSize"));
    s.readyCount = int(r.integer("readyCount"));
    s.cpus = r.number("cpus");
    s.memoryMb = int(r.integer("memoryMb"));
    s.createdAt = r.time("createdAt");
    s.sizeBytes = r.integer("sizeBytes", -1);
    if (r.has("sourceVolume"))
        s.sourceVolume = r.boolean("sourceVolume", false);
    return s;
}

// One fork entry, read the way the SDK reads it: a sandbox without an id is a failed copy.
ForkEntry forkEntry(const Json& j)
{
    const JsonReader r(j, QStringLiteral("fork entry"));
    ForkEntry e;
    const Json* sandbox = r.find("sandbox");
    const bool hasId = sandbox != nullptr && sandbox->is_object() &&
                       ((sandbox->contains("sandboxId") && (*sandbox)["sandboxId"].is_string()) ||
                        (sandbox->contains("id") && (*sandbox)["id"].is_string()));
    if (hasId) {
        e.sandbox = sandboxFromJson(*sandbox);
        return e;
    }
    e.error = r.string("error", QStringLiteral("fork failed"));
    e.code = r.string("code");
    e.httpStatus = int(r.integer("status"));
    e.limit = int(r.integer("limit", -1));
    e.running = int(r.integer("running", -1));
    e.retryAfterS = int(r.integer("retryAfterS", -1));
    return e;
}

} // namespace

Outcome<LifecyclePolicy> parseLifecyclePolicy(const QByteArray& body, const QString& what)
{
    return parseWith<LifecyclePolicy>(body, what, [](const Json& j) {
        const JsonReader r(j, QStringLiteral("lifecycle"));
        LifecyclePolicy p;
        p.onTimeout = r.requiredString("onTimeout");
        p.idlePauseMinutes = int(r.integer("idlePauseMinutes"));
        p.pausedBy = r.string("pausedBy");
        p.timeoutMs = r.integer("timeoutMs");
        p.endAt = r.time("endAt");
        return p;
    });
}

QByteArray lifecycleBody(const QString& onTimeout, int idlePauseMinutes)
{
    Json j = Json::object();
    if (!onTimeout.isEmpty())
        j["onTimeout"] = utf8(onTimeout);
    if (idlePauseMinutes >= 0)
        j["idlePauseMinutes"] = idlePauseMinutes;
    return dump(j);
}

Outcome<Snapshot> parseSnapshot(const QByteArray& body, const QString& what)
{
    return parseWith<Snapshot>(body, what, snapshot);
}

Outcome<QList<Snapshot>> parseSnapshots(const QByteArray& body, const QString& what)
{
    return parseWith<QList<Snapshot>>(
        body, what, [](const Json& j) { return listOf<Snapshot>(j, "snapshots", snapshot); });
}

Outcome<QList<ForkEntry>> parseForkEntries(const QByteArray& body, const QString& what)
{
    return parseWith<QList<ForkEntry>>(
        body, what, [](const Json& j) { return listOf<ForkEntry>(j, "fork answer", forkEntry); });
}

QByteArray snapshotBody(const QString& name)
{
    // poolSize 5 is what the SDK sends by default; lizard-local ignores it.
    return dump(Json{{"name", utf8(name)}, {"poolSize", 5}});
}

QByteArray forkBody(int count, qint64 timeoutMs)
{
    return dump(Json{{"count", count}, {"timeoutMs", timeoutMs}});
}

} // namespace lizard::client
