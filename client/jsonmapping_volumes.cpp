// JSON of the volume calls.
#include "client/jsonhelpers.h"
#include "client/jsonmapping.h"

namespace lizard::client {

using namespace jsonhelpers;

namespace {

Volume volume(const Json& j)
{
    const JsonReader r(j, QStringLiteral("volume"));
    Volume v;
    v.id = r.requiredString("id");
    v.projectId = r.string("projectId");
    v.name = r.string("name");
    v.sizeGb = int(r.integer("sizeGb"));
    v.region = r.string("region");
    v.status = r.string("status");
    v.attachedTo = r.string("attachedTo");
    v.createdAt = r.time("createdAt");
    if (r.has("sizeEnforced"))
        v.sizeEnforced = r.boolean("sizeEnforced", false);
    return v;
}

} // namespace

Outcome<Volume> parseVolume(const QByteArray& body, const QString& what)
{
    return parseWith<Volume>(body, what, volume);
}

Outcome<QList<Volume>> parseVolumes(const QByteArray& body, const QString& what)
{
    return parseWith<QList<Volume>>(
        body, what, [](const Json& j) { return listOf<Volume>(j, "volumes", volume); });
}

QByteArray createVolumeBody(const QString& name, int sizeGb, bool getOrCreate)
{
    Json j{{"name", utf8(name)}, {"sizeGb", sizeGb}};
    if (getOrCreate)
        j["getOrCreate"] = true;
    return dump(j);
}

QByteArray resizeVolumeBody(int sizeGb)
{
    return dump(Json{{"sizeGb", sizeGb}});
}

} // namespace lizard::client
