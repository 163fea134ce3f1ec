#include "client/jsonmapping.h"

#include "client/jsonhelpers.h"

namespace lizard::client {

namespace jsonhelpers {

SandboxInfo sandboxFromJson(const Json& j)
{
    const JsonReader r(j, QStringLiteral("sandbox"));
    SandboxInfo s;
    s.sandboxId = r.has("sandboxId") ? r.requiredString("sandboxId") : r.requiredString("id");
    s.templateName = r.string("template");
    s.projectId = r.string("projectId");
    s.startedAt = r.time("startedAt");
    s.endAt = r.time("endAt");
    s.status = r.string("status");
    s.size = r.string("size");
    s.region = r.string("region");
    s.pauseError = r.optionalString("pauseError");
    s.cpus = r.number("cpus");
    s.memoryMb = int(r.integer("memoryMb"));
    if (const Json* limits = r.find("limits")) {
        const JsonReader l(*limits, QStringLiteral("sandbox limits"));
        s.limitsEnforcedBy = l.string("enforcedBy");
        s.pidsLimit = int(l.integer("pids"));
        s.processMemoryMb = int(l.integer("processMemoryMb"));
        s.diskEnforcedBy = l.string("disk");
        s.diskOver = l.boolean("diskOver", false);
    }
    s.diskGb = int(r.integer("diskGb"));
    s.internetAccess = r.boolean("internetAccess", true);
    s.fromPool = r.boolean("fromPool", false);
    if (const Json* hosts = r.find("allowedHosts"); hosts && hosts->is_array())
        for (const Json& h : *hosts)
            if (h.is_string())
                s.allowedHosts << QString::fromStdString(h.get<std::string>());
    s.metadata = r.stringMap("metadata");
    s.onTimeout = r.string("onTimeout");
    s.idlePauseMinutes = int(r.integer("idlePauseMinutes"));
    s.pausedBy = r.string("pausedBy");
    s.timeoutMs = r.integer("timeoutMs");
    return s;
}

} // namespace jsonhelpers

using namespace jsonhelpers;

namespace {

Project project(const Json& j)
{
    const JsonReader r(j, QStringLiteral("project"));
    Project p;
    p.id = r.requiredString("id");
    p.name = r.string("name");
    p.slug = r.string("slug");
    p.workspaceId = r.string("workspaceId");
    p.createdAt = r.time("createdAt");
    return p;
}

} // namespace

Outcome<Project> parseProject(const QByteArray& body, const QString& what)
{
    return parseWith<Project>(body, what, project);
}

Outcome<QList<Project>> parseProjects(const QByteArray& body, const QString& what)
{
    return parseWith<QList<Project>>(
        body, what, [](const Json& j) { return listOf<Project>(j, "projects", project); });
}

Outcome<SandboxInfo> parseSandbox(const QByteArray& body, const QString& what)
{
    return parseWith<SandboxInfo>(body, what, sandboxFromJson);
}

Outcome<QList<SandboxInfo>> parseSandboxes(const QByteArray& body, const QString& what)
{
    return parseWith<QList<SandboxInfo>>(body, what, [](const Json& j) {
        return listOf<SandboxInfo>(j, "sandboxes", sandboxFromJson);
    });
}

Outcome<WhoAmI> parseWhoAmI(const QByteArray& body, const QString& what)
{
    return parseWith<WhoAmI>(body, what, [](const Json& j) {
        const JsonReader r(j, QStringLiteral("account"));
        WhoAmI w;
        w.id = r.string("id");
        w.name = r.has("name") ? r.string("name") : r.string("username");
        w.email = r.string("email");
        w.workspaceId = r.string("workspaceId");
        return w;
    });
}

QByteArray nameBody(const QString& name)
{
    return dump(Json{{"name", utf8(name)}});
}

QByteArray createSandboxBody(const CreateSandboxRequest& request)
{
    Json j = Json::object();
    if (request.snapshotId.isEmpty()) {
        j["template"] =
            utf8(request.templateName.isEmpty() ? QStringLiteral("base") : request.templateName);
    } else {
        // Restore: the snapshot decides template and size, as in the SDK's restore().
        j["snapshotId"] = utf8(request.snapshotId);
    }
    j["projectId"] = utf8(request.projectId);
    if (!request.size.isEmpty() && request.snapshotId.isEmpty())
        j["size"] = utf8(request.size);
    if (!request.volumeId.isEmpty())
        j["volumeId"] = utf8(request.volumeId);
    if (!request.volumeName.isEmpty())
        j["volumeName"] = utf8(request.volumeName);
    j["timeoutMs"] = request.timeoutMs;
    if (!request.metadata.isEmpty())
        j["metadata"] = stringMapJson(request.metadata);
    if (!request.envs.isEmpty())
        j["envs"] = stringMapJson(request.envs);
    if (!request.allowedHosts.isEmpty()) {
        Json hosts = Json::array(); // it implies no other network: internetAccess is not sent
        for (const QString& h : request.allowedHosts)
            hosts.push_back(utf8(h));
        j["allowedHosts"] = hosts;
    } else if (!request.internetAccess) {
        j["internetAccess"] = false; // sent only when asked, as the SDK does
    }
    if (!request.onTimeout.isEmpty())
        j["onTimeout"] = utf8(request.onTimeout);
    if (request.idlePauseMinutes > 0)
        j["idlePauseMinutes"] = request.idlePauseMinutes;
    return dump(j);
}

QByteArray timeoutBody(qint64 timeoutMs)
{
    return dump(Json{{"timeoutMs", timeoutMs}});
}

} // namespace lizard::client
