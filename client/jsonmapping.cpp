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
    if (const Json* hosts = r.find("allowedHosts"); hosts && hosts->is_array())
        for (const Json& h : *hosts)
            if (h.is_string())
                s.allowedHosts << QString::fromStdString(h.get<std::string>());
    s.metadata = r.stringMap("metadata");
    return s;
}

} // namespace jsonhelpers

using namespace jsonhelpers;

namespace {

Json toJson(const QMap<QString, QString>& map)
{
    Json out = Json::object();
    for (auto it = map.begin(); it != map.end(); ++it)
        out[utf8(it.key())] = utf8(it.value());
    return out;
}

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

ProcessInfo process(const Json& j)
{
    const JsonReader r(j, QStringLiteral("process"));
    ProcessInfo p;
    p.pid = int(r.integer("pid", -1));
    if (p.pid < 0)
        r.fail("pid", "a process id (required)");
    p.cmd = r.stringList("cmd");
    p.command = r.string("command", p.cmd.join(QLatin1Char(' ')));
    p.cwd = r.string("cwd");
    p.startedAt = r.time("startedAt");
    return p;
}

FileEntry fileEntry(const Json& j)
{
    const JsonReader r(j, QStringLiteral("file entry"));
    FileEntry f;
    f.name = r.string("name");
    f.path = r.requiredString("path");
    if (f.name.isEmpty())
        f.name = f.path.section(QLatin1Char('/'), -1);
    f.type = r.string("type", QStringLiteral("file"));
    f.size = r.integer("size");
    if (const Json* mode = r.find("mode")) {
        // The SDK documents a number (0o644 = 420); accept the "0644" text form too.
        if (mode->is_number_integer())
            f.mode = QStringLiteral("%1").arg(mode->get<qint64>() & 07777, 4, 8, QLatin1Char('0'));
        else if (mode->is_string())
            f.mode = QString::fromStdString(mode->get<std::string>());
        else
            r.fail("mode", "a number");
    }
    f.permissions = r.string("permissions");
    f.owner = r.string("owner");
    f.group = r.string("group");
    f.modifiedAt = r.has("modifiedAt") ? r.time("modifiedAt") : r.time("modTime");
    f.symlinkTarget = r.string("symlinkTarget");
    return f;
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

Outcome<ExecResult> parseExecResult(const QByteArray& body, const QString& what)
{
    return parseWith<ExecResult>(body, what, [](const Json& j) {
        const JsonReader r(j, QStringLiteral("exec result"));
        ExecResult e;
        e.stdoutText = r.string("stdout");
        e.stderrText = r.string("stderr");
        if (!r.has("exitCode"))
            r.fail("exitCode", "a number (required)");
        e.exitCode = int(r.integer("exitCode"));
        e.truncated = r.boolean("truncated", false);
        return e;
    });
}

Outcome<QList<ProcessInfo>> parseProcesses(const QByteArray& body, const QString& what)
{
    return parseWith<QList<ProcessInfo>>(
        body, what, [](const Json& j) { return listOf<ProcessInfo>(j, "processes", process); });
}

Outcome<FileEntry> parseFileEntry(const QByteArray& body, const QString& what)
{
    return parseWith<FileEntry>(body, what, fileEntry);
}

Outcome<QList<FileEntry>> parseFileEntries(const QByteArray& body, const QString& what)
{
    return parseWith<QList<FileEntry>>(
        body, what, [](const Json& j) { return listOf<FileEntry>(j, "file list", fileEntry); });
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
        j["metadata"] = toJson(request.metadata);
    if (!request.envs.isEmpty())
        j["envs"] = toJson(request.envs);
    if (!request.allowedHosts.isEmpty()) {
        Json hosts = Json::array(); // it implies no other network: internetAccess is not sent
        for (const QString& h : request.allowedHosts)
            hosts.push_back(utf8(h));
        j["allowedHosts"] = hosts;
    } else if (!request.internetAccess) {
        j["internetAccess"] = false; // sent only when asked, as the SDK does
    }
    return dump(j);
}

QByteArray timeoutBody(qint64 timeoutMs)
{
    return dump(Json{{"timeoutMs", timeoutMs}});
}

QByteArray execBody(const QString& shellCmd, const QStringList& argv, bool useArgv,
                    const ExecOptions& opts, bool pidEvent)
{
    Json j = Json::object();
    if (useArgv) {
        Json a = Json::array();
        for (const QString& s : argv)
            a.push_back(utf8(s));
        j["cmd"] = a;
    } else {
        j["cmd"] = utf8(shellCmd);
    }
    if (!opts.envs.isEmpty())
        j["envs"] = toJson(opts.envs);
    if (!opts.user.isEmpty())
        j["user"] = utf8(opts.user);
    if (!opts.workdir.isEmpty())
        j["workdir"] = utf8(opts.workdir);
    if (opts.timeoutMs > 0)
        j["timeoutMs"] = opts.timeoutMs;
    if (pidEvent)
        j["pidEvent"] = true;
    return dump(j);
}

QByteArray signalBody(int pid, const QString& signal)
{
    return dump(Json{{"pid", pid},
                     {"signal", utf8(signal.isEmpty() ? QStringLiteral("SIGTERM") : signal)}});
}

QByteArray writeFileBody(const QString& path, const QByteArray& content)
{
    Json j{{"path", utf8(path)}};
    // Text only when it is strict UTF-8 (no overlong forms, surrogates or values past U+10FFFF),
    // which Qt's check is: anything else travels as base64 and arrives byte for byte.
    if (!content.contains('\0') && QByteArrayView(content).isValidUtf8()) {
        j["content"] = content.toStdString();
    } else {
        j["content"] = content.toBase64().toStdString();
        j["encoding"] = "base64";
    }
    return dump(j);
}

QByteArray pathBody(const QString& path)
{
    return dump(Json{{"path", utf8(path)}});
}

QByteArray moveBody(const QString& from, const QString& to)
{
    return dump(Json{{"from", utf8(from)}, {"to", utf8(to)}});
}

} // namespace lizard::client
