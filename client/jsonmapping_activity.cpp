// JSON → ActivityEntry: the activity log's entries (server/api/DECISIONS.md "Activity log"),
// from a page of the JSON route and from each event of the followed stream.
#include "client/coderun/runnerevents.h"
#include "client/jsonhelpers.h"
#include "client/jsonmapping.h"

namespace lizard::client {

using namespace jsonhelpers;

namespace {

ActivityRunEvent::Type runEventType(const QString& type)
{
    using T = ActivityRunEvent::Type;
    static const QHash<QString, T> types{{QStringLiteral("stdout"), T::Stdout},
                                         {QStringLiteral("stderr"), T::Stderr},
                                         {QStringLiteral("result"), T::Result},
                                         {QStringLiteral("update_display"), T::UpdateDisplay},
                                         {QStringLiteral("clear_output"), T::ClearOutput},
                                         {QStringLiteral("error"), T::Error},
                                         {QStringLiteral("done"), T::Done}};
    return types.value(type, T::Other);
}

ActivityRunEvent runEvent(const JsonReader& ev)
{
    ActivityRunEvent out;
    out.type = runEventType(ev.string("type"));
    switch (out.type) {
    case ActivityRunEvent::Type::Stdout:
    case ActivityRunEvent::Type::Stderr:
        out.text = ev.string("data");
        break;
    case ActivityRunEvent::Type::Result:
    case ActivityRunEvent::Type::UpdateDisplay:
        out.result = resultFromEvent(ev);
        if (!ev.has("mime") && !ev.has("bundle")) { // a bare value is text
            out.result.mime = QStringLiteral("text/plain");
            out.result.bundle = {{out.result.mime, ev.string("data")}};
        }
        break;
    case ActivityRunEvent::Type::Error:
        out.error = errorFromEvent(ev);
        break;
    case ActivityRunEvent::Type::Done:
        if (ev.has("execution_count"))
            out.executionCount = int(ev.integer("execution_count"));
        break;
    default:
        break;
    }
    return out;
}

// The events a run recorded; one the reader cannot make sense of is left out, the rest shown.
QList<ActivityRunEvent> runEvents(const Json* events)
{
    QList<ActivityRunEvent> out;
    if (events == nullptr || !events->is_array())
        return out;
    for (const Json& ev : *events) {
        try {
            out.append(runEvent(JsonReader(ev, QStringLiteral("a run's event"))));
        } catch (const JsonShapeError&) {
        }
    }
    return out;
}

// Which field of the entry each key fills, by the type JsonReader reads it as.
using E = ActivityEntry;
const std::pair<const char*, QString E::*> kStrings[] = {{"time", &E::time},
                                                         {"kind", &E::kind},
                                                         {"cwd", &E::cwd},
                                                         {"user", &E::user},
                                                         {"start", &E::start},
                                                         {"end", &E::end},
                                                         {"message", &E::message},
                                                         {"stdoutHead", &E::stdoutHead},
                                                         {"stderrHead", &E::stderrHead},
                                                         {"context", &E::context},
                                                         {"language", &E::language},
                                                         {"code", &E::code},
                                                         {"via", &E::via},
                                                         {"path", &E::path},
                                                         {"from", &E::from},
                                                         {"to", &E::to},
                                                         {"template", &E::templateName},
                                                         {"name", &E::name},
                                                         {"snapshotId", &E::snapshotId},
                                                         {"endAt", &E::endAt},
                                                         {"reason", &E::reason}};
const std::pair<const char*, std::optional<QString> E::*> kOptionalStrings[] = {
    {"command", &E::command},
    {"error", &E::error},
    {"stdoutTail", &E::stdoutTail},
    {"stderrTail", &E::stderrTail}};
const std::pair<const char*, QStringList E::*> kLists[] = {
    {"argv", &E::argv}, {"envNames", &E::envNames}, {"forks", &E::forks}};
const std::pair<const char*, qint64 E::*> kIntegers[] = {{"seq", &E::seq},
                                                         {"durationMs", &E::durationMs},
                                                         {"stdoutBytes", &E::stdoutBytes},
                                                         {"stderrBytes", &E::stderrBytes}};
const std::pair<const char*, int E::*> kInts[] = {{"count", &E::count}, {"port", &E::port}};
const std::pair<const char*, bool E::*> kFlags[] = {{"housekeeping", &E::housekeeping},
                                                    {"timedOut", &E::timedOut},
                                                    {"cancelled", &E::cancelled},
                                                    {"eventsTruncated", &E::eventsTruncated}};

ActivityEntry entryFromJson(const JsonReader& e)
{
    ActivityEntry a;
    for (const auto& [key, field] : kStrings)
        a.*field = e.string(key);
    for (const auto& [key, field] : kOptionalStrings)
        a.*field = e.optionalString(key);
    for (const auto& [key, field] : kLists)
        a.*field = e.stringList(key);
    for (const auto& [key, field] : kIntegers)
        a.*field = e.integer(key);
    for (const auto& [key, field] : kInts)
        a.*field = int(e.integer(key));
    for (const auto& [key, field] : kFlags)
        a.*field = e.boolean(key, false);
    if (e.has("exitCode"))
        a.exitCode = int(e.integer("exitCode"));
    a.events = runEvents(e.find("events"));
    // `size` is a fileWrite's bytes and a create's size name.
    if (const Json* size = e.find("size"); size != nullptr && size->is_string())
        a.sizeName = e.string("size");
    else
        a.size = e.integer("size");
    return a;
}

} // namespace

std::optional<ActivityEntry> jsonhelpers::activityEntryFromJson(const nlohmann::json& value)
{
    // Every entry is an object with its seq; one that is not, or whose fields have the wrong
    // type, is not ours to guess at: it is left out, the log goes on.
    const auto seq = value.is_object() ? value.find("seq") : value.end();
    if (!value.is_object() || seq == value.end() || !seq->is_number_unsigned())
        return std::nullopt;
    try {
        return entryFromJson(JsonReader(value, QStringLiteral("an activity entry")));
    } catch (const JsonShapeError&) {
        return std::nullopt;
    } catch (const Json::exception&) {
        return std::nullopt;
    }
}

QString argvJsonText(const QStringList& argv)
{
    Json array = Json::array();
    for (const QString& a : argv)
        array.push_back(utf8(a));
    return QString::fromUtf8(dump(array));
}

std::optional<ActivityEntry> parseActivityEntry(const QByteArray& text)
{
    return activityEntryFromJson(Json::parse(text.constBegin(), text.constEnd(), nullptr, false));
}

Outcome<ActivityPage> parseActivityPage(const QByteArray& body, const QString& what)
{
    return parseWith<ActivityPage>(body, what, [](const Json& j) {
        ActivityPage page;
        const auto entries = j.is_object() ? j.find("entries") : j.end();
        if (!j.is_object() || entries == j.end() || !entries->is_array())
            throw JsonShapeError("the activity answer has no \"entries\" array");
        for (const Json& e : *entries) {
            if (auto entry = activityEntryFromJson(e))
                page.entries.push_back(std::move(*entry));
        }
        page.lastSeq = j.value("lastSeq", qint64(0));
        page.more = j.value("more", false);
        return page;
    });
}

} // namespace lizard::client
