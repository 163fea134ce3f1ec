// JSON of the exec and process calls.
#include "client/jsonhelpers.h"
#include "client/jsonmapping.h"

namespace lizard::client {

using namespace jsonhelpers;

namespace {

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

ProcessTreeEntry treeEntry(const Json& j)
{
    const JsonReader r(j, QStringLiteral("process"));
    ProcessTreeEntry p;
    p.pid = int(r.integer("pid", -1));
    if (p.pid <= 0)
        r.fail("pid", "a process id (required)");
    p.ppid = int(r.integer("ppid"));
    p.uid = int(r.integer("uid", -1));
    p.user = r.string("user");
    p.state = r.string("state");
    p.name = r.string("name");
    p.cmd = r.stringList("cmd");
    p.command = r.string("command", p.cmd.join(QLatin1Char(' ')));
    p.cpuMs = r.integer("cpuMs");
    p.rssBytes = r.integer("rssBytes");
    p.threads = int(r.integer("threads"));
    p.startedAt = r.time("startedAt");
    p.exec = r.boolean("exec", false);
    p.system = r.boolean("system", false);
    return p;
}

} // namespace

Outcome<ProcessTree> parseProcessTree(const QByteArray& body, const QString& what)
{
    return parseWith<ProcessTree>(body, what, [](const Json& j) {
        const JsonReader r(j, QStringLiteral("process tree"));
        ProcessTree t;
        const Json* list = r.find("processes");
        if (list == nullptr)
            r.fail("processes", "an array (required)");
        t.processes = listOf<ProcessTreeEntry>(*list, "processes", treeEntry);
        t.sampledAtMs = r.integer("sampledAt");
        t.truncated = r.boolean("truncated", false);
        return t;
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
        j["envs"] = stringMapJson(opts.envs);
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

QByteArray signalBody(int pid, const QString& signal, bool tree)
{
    Json j{{"pid", pid}, {"signal", utf8(signal.isEmpty() ? QStringLiteral("SIGTERM") : signal)}};
    if (tree)
        j["tree"] = true;
    return dump(j);
}

} // namespace lizard::client
