// JSON of the resource metrics calls (a local extension of lizard-local).
#include "client/jsonhelpers.h"
#include "client/jsonmapping.h"

namespace lizard::client {

using namespace jsonhelpers;

namespace {

QList<MetricValue> metricSeries(const JsonReader& r, const char* key)
{
    QList<MetricValue> out;
    const Json* a = r.find(key);
    if (a == nullptr)
        return out;
    if (!a->is_array())
        r.fail(key, "an array of {t, value}");
    out.reserve(qsizetype(a->size()));
    for (const Json& e : *a) {
        const JsonReader p(e, QString::fromLatin1(key));
        out.append({p.integer("t"), p.number("value")});
    }
    return out;
}

double optionalFigure(const JsonReader& r, const char* key)
{
    return r.has(key) ? r.number(key) : MetricSnapshot::kUnknown;
}

MetricSnapshot metricSnapshot(const Json* j, const char* where)
{
    MetricSnapshot s;
    if (j == nullptr)
        return s;
    const JsonReader r(*j, QString::fromLatin1(where));
    s.t = r.integer("t");
    s.cpu = optionalFigure(r, "cpu");
    s.memory = optionalFigure(r, "memory");
    s.pids = optionalFigure(r, "pids");
    s.disk = optionalFigure(r, "disk");
    s.networkRx = optionalFigure(r, "networkRx");
    s.networkTx = optionalFigure(r, "networkTx");
    s.diskRead = optionalFigure(r, "diskRead");
    s.diskWrite = optionalFigure(r, "diskWrite");
    return s;
}

MetricLimits metricLimits(const Json* j)
{
    MetricLimits l;
    if (j == nullptr)
        return l;
    const JsonReader r(*j, QStringLiteral("limits"));
    l.cpus = r.number("cpus");
    l.memoryMb = r.integer("memoryMb");
    l.memoryKind = r.string("memory");
    l.pids = r.integer("pids");
    l.diskGb = r.integer("diskGb");
    return l;
}

} // namespace

Outcome<SandboxMetrics> parseSandboxMetrics(const QByteArray& body, const QString& what)
{
    return parseWith<SandboxMetrics>(body, what, [](const Json& j) {
        const JsonReader r(j, QStringLiteral("metrics"));
        SandboxMetrics m;
        m.sandboxId = r.string("sandboxId");
        m.range = r.string("range");
        m.status = r.string("status");
        m.source = r.string("source");
        m.intervalMs = int(r.integer("intervalMs"));
        m.cpu = metricSeries(r, "cpu");
        m.memory = metricSeries(r, "memory");
        m.pids = metricSeries(r, "pids");
        m.disk = metricSeries(r, "disk");
        m.networkRx = metricSeries(r, "networkRx");
        m.networkTx = metricSeries(r, "networkTx");
        m.diskRead = metricSeries(r, "diskRead");
        m.diskWrite = metricSeries(r, "diskWrite");
        m.limits = metricLimits(r.find("limits"));
        if (const Json* events = r.find("events")) {
            m.events = listOf<MetricEvent>(*events, "events", [](const Json& e) {
                const JsonReader er(e, QStringLiteral("event"));
                return MetricEvent{er.integer("t"), er.string("kind"), er.string("message")};
            });
        }
        m.latest = metricSnapshot(r.find("latest"), "latest");
        return m;
    });
}

Outcome<ProjectMetrics> parseProjectMetrics(const QByteArray& body, const QString& what)
{
    return parseWith<ProjectMetrics>(body, what, [](const Json& j) {
        const JsonReader r(j, QStringLiteral("project metrics"));
        ProjectMetrics p;
        p.projectId = r.string("projectId");
        p.running = int(r.integer("running"));
        p.paused = int(r.integer("paused"));
        p.totals = metricSnapshot(r.find("totals"), "totals");
        if (const Json* limits = r.find("limits")) {
            const JsonReader lr(*limits, QStringLiteral("limits"));
            p.cpusLimit = lr.number("cpus");
            p.memoryMbLimit = lr.integer("memoryMb");
        }
        if (const Json* list = r.find("sandboxes")) {
            p.sandboxes = listOf<ProjectSandboxMetrics>(*list, "sandboxes", [](const Json& e) {
                const JsonReader sr(e, QStringLiteral("sandbox"));
                ProjectSandboxMetrics s;
                s.sandboxId = sr.requiredString("sandboxId");
                s.status = sr.string("status");
                s.templateName = sr.string("template");
                s.limits = metricLimits(sr.find("limits"));
                s.latest = metricSnapshot(sr.find("latest"), "latest");
                return s;
            });
        }
        return p;
    });
}

} // namespace lizard::client
