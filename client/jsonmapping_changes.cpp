// JSON of a sandbox's changes against its template (a lizard-local extension).
#include "client/jsonhelpers.h"
#include "client/jsonmapping.h"

namespace lizard::client {

using namespace jsonhelpers;

namespace {

FileChange change(const Json& j)
{
    const JsonReader r(j, QStringLiteral("change"));
    FileChange c;
    c.path = r.string("path");
    if (c.path.isEmpty())
        r.fail("path", "a path (required)");
    c.kind = r.string("kind");
    c.type = r.string("type");
    c.was = r.string("was");
    c.size = r.integer("size");
    c.mode = int(r.integer("mode"));
    c.mtimeNs = r.integer("mtimeNs");
    return c;
}

QStringList notCompared(const Json& j)
{
    const JsonReader r(j, QStringLiteral("notCompared"));
    return {r.string("path"), r.string("reason")};
}

} // namespace

Outcome<SandboxChanges> parseSandboxChanges(const QByteArray& body, const QString& what)
{
    return parseWith<SandboxChanges>(body, what, [](const Json& j) {
        const JsonReader r(j, QStringLiteral("changes"));
        SandboxChanges out;
        const Json* list = r.find("changes");
        if (list == nullptr)
            r.fail("changes", "an array (required)");
        out.changes = listOf<FileChange>(*list, "changes", change);
        out.against = r.string("against");
        out.againstId = r.string("againstId");
        out.templateName = r.string("template");
        out.truncated = r.boolean("truncated", false);
        if (const Json* blind = r.find("notCompared"))
            out.notCompared = listOf<QStringList>(*blind, "notCompared", notCompared);
        return out;
    });
}

} // namespace lizard::client
