// JSON of the desktop calls.
#include "client/jsonhelpers.h"
#include "client/jsonmapping.h"

namespace lizard::client {

using namespace jsonhelpers;

Outcome<DesktopInfo> parseDesktopInfo(const QByteArray& body, const QString& what)
{
    return parseWith<DesktopInfo>(body, what, [](const Json& j) {
        const JsonReader r(j, QStringLiteral("desktop"));
        DesktopInfo d;
        d.running = r.boolean("running", false);
        d.width = int(r.integer("width", 0));
        d.height = int(r.integer("height", 0));
        d.url = r.requiredString("url");
        d.viewOnlyUrl = r.requiredString("viewOnlyUrl");
        if (d.width < 0 || d.height < 0)
            throw JsonShapeError("the desktop's size is negative");
        return d;
    });
}

} // namespace lizard::client
