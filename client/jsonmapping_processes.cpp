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

} // namespace

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

QByteArray signalBody(int pid, const QString& signal)
{
    return dump(Json{{"pid", pid},
                     {"signal", utf8(signal.isEmpty() ? QStringLiteral("SIGTERM") : signal)}});
}

} // namespace lizard::client
