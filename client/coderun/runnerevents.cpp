#include "client/coderun/runnerevents.h"

#include "client/jsonhelpers.h"

#include <QFile>
#include <QRegularExpression>
#include <cmath>
#include <optional>

namespace lizard::client {

using nlohmann::json;

namespace {

// A field that must be a string when present; the runner never sends another type there.
bool stringOrAbsent(const json& ev, const char* key)
{
    const auto it = ev.find(key);
    return it == ev.end() || it->is_string();
}

} // namespace

std::optional<json> RunnerEventDecoder::feed(const QString& line)
{
    const QByteArray text = line.toUtf8();
    json ev = json::parse(text.constBegin(), text.constEnd(), nullptr, false);
    if (ev.is_discarded() || !ev.is_object() || !stringOrAbsent(ev, "type") ||
        !stringOrAbsent(ev, "req")) {
        ++m_junk;
        return std::nullopt;
    }
    if (runnerEventType(ev) != QLatin1String("part"))
        return ev;
    const auto end = ev.find("end");
    const QString req = stringField(ev, "req");
    QString& pieces = m_parts[req];
    pieces += stringField(ev, "data");
    if (end == ev.end() || !end->is_boolean() || !end->get<bool>())
        return std::nullopt;
    const QString whole = m_parts.take(req);
    return feed(whole);
}

QByteArray runnerSource()
{
    QFile f(QStringLiteral(":/lizard/runner/lizard_runner.py"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

QString runnerVersion()
{
    static const QRegularExpression line(QStringLiteral("^VERSION = \"([^\"]+)\"$"),
                                         QRegularExpression::MultilineOption);
    return line.match(QString::fromUtf8(runnerSource())).captured(1);
}

QByteArray runnerRequestText(const json& args)
{
    return jsonhelpers::dump(args);
}

QString encodeRunnerArgs(const json& args)
{
    return QString::fromLatin1(runnerRequestText(args).toBase64());
}

json runnerNumber(double value)
{
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.0e15)
        return json(qint64(value));
    return json(value);
}

QString runnerEventType(const json& event)
{
    return stringField(event, "type");
}

ExecutionResult resultFromEvent(const JsonReader& ev)
{
    ExecutionResult r;
    r.mime = ev.string("mime");
    r.bundle = ev.stringMap("bundle");
    if (!r.bundle.contains(r.mime)) // the SDK's runner sends only mime + data
        r.bundle.insert(r.mime, ev.string("data"));
    if (const json* meta = ev.find("metadata"); meta != nullptr && meta->is_object())
        r.metadata = *meta;
    r.isDisplay = ev.boolean("display", true);
    if (ev.has("execution_count"))
        r.executionCount = int(ev.integer("execution_count"));
    r.displayId = ev.string("display_id");
    return r;
}

ExecutionError errorFromEvent(const JsonReader& ev)
{
    ExecutionError e;
    e.name = ev.string("name");
    e.message = ev.string("message");
    e.traceback = ev.string("traceback");
    e.tracebackAnsi = ev.string("traceback_ansi", e.traceback);
    return e;
}

} // namespace lizard::client
