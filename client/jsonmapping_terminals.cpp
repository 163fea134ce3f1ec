// JSON of the terminal calls and of the text frames of a terminal's WebSocket
// (/work/notes/terminal-protocol.md: lizard-local's extension).
#include "client/jsonhelpers.h"
#include "client/jsonmapping.h"

namespace lizard::client {

using namespace jsonhelpers;

namespace {

TerminalInfo terminal(const Json& j)
{
    const JsonReader r(j, QStringLiteral("terminal"));
    TerminalInfo t;
    t.terminalId = r.requiredString("terminalId");
    t.sandboxId = r.string("sandboxId");
    t.name = r.string("name");
    if (const Json* cmd = r.find("cmd"); cmd != nullptr && cmd->is_string())
        t.cmd = QStringList{QString::fromStdString(cmd->get<std::string>())};
    else
        t.cmd = r.stringList("cmd");
    t.user = r.string("user");
    t.cwd = r.string("cwd");
    t.cols = int(r.integer("cols", 0));
    t.rows = int(r.integer("rows", 0));
    t.pid = int(r.integer("pid", 0));
    t.status = r.string("status");
    if (r.has("exitCode"))
        t.exitCode = int(r.integer("exitCode"));
    t.createdAt = r.time("createdAt");
    t.endedAt = r.time("endedAt");
    t.clients = int(r.integer("clients", 0));
    t.createdBy = r.string("createdBy");
    if (t.cols < 0 || t.rows < 0)
        throw JsonShapeError("the terminal's size is negative");
    return t;
}

} // namespace

Outcome<TerminalInfo> parseTerminal(const QByteArray& body, const QString& what)
{
    return parseWith<TerminalInfo>(body, what, terminal);
}

Outcome<QList<TerminalInfo>> parseTerminals(const QByteArray& body, const QString& what)
{
    return parseWith<QList<TerminalInfo>>(body, what, [](const Json& j) {
        const JsonReader r(j, QStringLiteral("terminal list"));
        const Json* list = r.find("terminals");
        if (list == nullptr)
            return QList<TerminalInfo>();
        return listOf<TerminalInfo>(*list, "terminals", terminal);
    });
}

QByteArray createTerminalBody(const CreateTerminalRequest& request)
{
    Json j = Json::object();
    if (!request.argv.isEmpty()) {
        Json argv = Json::array();
        for (const QString& a : request.argv)
            argv.push_back(utf8(a));
        j["cmd"] = argv;
    } else if (!request.shellCmd.isEmpty()) {
        j["cmd"] = utf8(request.shellCmd);
    }
    if (request.cols > 0)
        j["cols"] = request.cols;
    if (request.rows > 0)
        j["rows"] = request.rows;
    if (!request.user.isEmpty())
        j["user"] = utf8(request.user);
    if (!request.cwd.isEmpty())
        j["cwd"] = utf8(request.cwd);
    if (!request.envs.isEmpty())
        j["envs"] = stringMapJson(request.envs);
    if (!request.name.isEmpty())
        j["name"] = utf8(request.name);
    return dump(j);
}

QByteArray updateTerminalBody(int cols, int rows, const std::optional<QString>& name)
{
    Json j = Json::object();
    if (cols > 0)
        j["cols"] = cols;
    if (rows > 0)
        j["rows"] = rows;
    if (name)
        j["name"] = utf8(*name);
    return dump(j);
}

QByteArray terminalSignalBody(const QString& signal)
{
    return dump(Json{{"signal", utf8(signal)}});
}

QByteArray terminalResizeMessage(int cols, int rows)
{
    return dump(Json{{"type", "resize"}, {"cols", cols}, {"rows", rows}});
}

QByteArray terminalSignalMessage(const QString& signal)
{
    return dump(Json{{"type", "signal"}, {"signal", utf8(signal)}});
}

TerminalControl parseTerminalControl(const QByteArray& text)
{
    TerminalControl c;
    const Json j = Json::parse(text.constBegin(), text.constEnd(), nullptr, false);
    if (!j.is_object())
        return c;
    const auto number = [&j](const char* key, qint64 fallback) -> qint64 {
        const auto it = j.find(key);
        return it != j.end() && it->is_number() ? it->get<qint64>() : fallback;
    };
    const QString type = stringField(j, "type");
    if (type == QLatin1String("hello")) {
        c.type = TerminalControl::Type::Hello;
        c.cols = int(number("cols", 0));
        c.rows = int(number("rows", 0));
        c.status = stringField(j, "status");
        c.replayBytes = number("replayBytes", 0);
    } else if (type == QLatin1String("resize")) {
        c.type = TerminalControl::Type::Resize;
        c.cols = int(number("cols", 0));
        c.rows = int(number("rows", 0));
    } else if (type == QLatin1String("exit")) {
        c.type = TerminalControl::Type::Exit;
        c.exitCode = int(number("code", -1));
    } else if (type == QLatin1String("error")) {
        c.type = TerminalControl::Type::Error;
        c.code = stringField(j, "code");
        c.message = stringField(j, "message");
    }
    return c;
}

} // namespace lizard::client
