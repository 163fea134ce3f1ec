// JSON of the schedule calls (the official SDK's SandboxSchedule and SandboxScheduleRun).
#include "client/jsonhelpers.h"
#include "client/jsonmapping.h"

namespace lizard::client {

using namespace jsonhelpers;

namespace {

SandboxSchedule scheduleFromJson(const Json& j)
{
    const JsonReader r(j, QStringLiteral("schedule"));
    SandboxSchedule s;
    s.id = r.requiredString("id");
    s.sandboxId = r.string("sandboxId");
    s.name = r.string("name");
    s.every = r.string("every");
    s.everySeconds = r.integer("everySeconds");
    s.cron = r.string("cron");
    s.timezone = r.string("timezone");
    s.kind = r.string("kind", QStringLiteral("command"));
    s.command = r.string("command");
    s.prompt = r.string("prompt");
    s.timeoutSeconds = int(r.integer("timeoutSeconds"));
    s.enabled = r.boolean("enabled", true);
    s.disabledReason = r.string("disabledReason");
    s.nextRunAt = r.time("nextRunAt");
    s.running = r.boolean("running", false);
    s.lastRunAt = r.time("lastRunAt");
    s.lastStatus = r.string("lastStatus");
    s.consecutiveFailures = int(r.integer("consecutiveFailures"));
    s.skippedCount = r.integer("skippedCount");
    s.createdAt = r.time("createdAt");
    return s;
}

ScheduleRun runFromJson(const Json& j)
{
    const JsonReader r(j, QStringLiteral("schedule run"));
    ScheduleRun run;
    run.id = r.requiredString("id");
    run.scheduleId = r.string("scheduleId");
    run.status = r.string("status");
    run.woke = r.boolean("woke", false);
    run.slept = r.boolean("slept", false);
    run.startedAt = r.time("startedAt");
    run.endedAt = r.time("endedAt");
    run.finished = r.boolean("finished", run.endedAt.isValid());
    run.durationMs = r.has("durationMs") ? r.integer("durationMs") : -1;
    if (r.has("exitCode"))
        run.exitCode = int(r.integer("exitCode"));
    run.output = r.string("output");
    run.error = r.string("error");
    return run;
}

// {"schedules": [...]} as lizard-local and the cloud answer; a bare array is taken too.
const Json& listIn(const Json& j, const char* key)
{
    if (j.is_object()) {
        const auto it = j.find(key);
        if (it == j.end())
            throw JsonShapeError(std::string(key) + ": expected an array");
        return *it;
    }
    return j;
}

} // namespace

Outcome<SandboxSchedule> parseSchedule(const QByteArray& body, const QString& what)
{
    return parseWith<SandboxSchedule>(body, what, scheduleFromJson);
}

Outcome<QList<SandboxSchedule>> parseSchedules(const QByteArray& body, const QString& what)
{
    return parseWith<QList<SandboxSchedule>>(body, what, [](const Json& j) {
        return listOf<SandboxSchedule>(listIn(j, "schedules"), "schedules", scheduleFromJson);
    });
}

Outcome<QList<ScheduleRun>> parseScheduleRuns(const QByteArray& body, const QString& what)
{
    return parseWith<QList<ScheduleRun>>(body, what, [](const Json& j) {
        return listOf<ScheduleRun>(listIn(j, "runs"), "runs", runFromJson);
    });
}

QByteArray scheduleBody(const ScheduleSpec& spec)
{
    Json j = Json::object();
    j["name"] = spec.name.trimmed().isEmpty() ? Json(nullptr) : Json(utf8(spec.name.trimmed()));
    if (!spec.cron.trimmed().isEmpty()) {
        j["cron"] = utf8(spec.cron.simplified());
        j["timezone"] = utf8(spec.timezone.trimmed().isEmpty() ? QStringLiteral("UTC")
                                                               : spec.timezone.trimmed());
    } else {
        bool number = false;
        const qint64 seconds = spec.every.trimmed().toLongLong(&number);
        j["every"] = number ? Json(seconds) : Json(utf8(spec.every.trimmed()));
    }
    j["command"] = utf8(spec.command);
    if (spec.timeoutSeconds > 0)
        j["timeoutSeconds"] = spec.timeoutSeconds;
    return dump(j);
}

QByteArray enabledBody(bool enabled)
{
    return dump(Json{{"enabled", enabled}});
}

} // namespace lizard::client
