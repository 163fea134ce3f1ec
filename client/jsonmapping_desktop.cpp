#include "client/jsonmapping.h"

#include "client/errormapping.h"
#include "client/jsonreader.h"

#include <nlohmann/json.hpp>

namespace lizard::client {

Outcome<DesktopInfo> parseDesktopInfo(const QByteArray& body, const QString& what)
{
    using Json = nlohmann::json;
    const Json j = Json::parse(body.constBegin(), body.constEnd(), nullptr, false);
    if (j.is_discarded())
        return protocolError(
            QStringLiteral("the answer is not JSON: %1").arg(QString::fromUtf8(body.left(200))),
            what);
    try {
        const JsonReader r(j, QStringLiteral("desktop"));
        DesktopInfo d;
        d.running = r.boolean("running", false);
        d.width = int(r.integer("width", 0));
        d.height = int(r.integer("height", 0));
        d.url = r.requiredString("url");
        d.viewOnlyUrl = r.requiredString("viewOnlyUrl");
        if (d.width < 0 || d.height < 0)
            return protocolError(QStringLiteral("the desktop's size is negative"), what);
        return d;
    } catch (const JsonShapeError& e) {
        return protocolError(QString::fromStdString(e.what()), what);
    } catch (const Json::exception& e) {
        return protocolError(QString::fromStdString(e.what()), what);
    }
}

} // namespace lizard::client
