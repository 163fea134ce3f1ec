#include "client/jsonmapping.h"

#include "client/errormapping.h"
#include "client/jsonreader.h"

#include <nlohmann/json.hpp>

namespace lizard::client {

Outcome<ExposedPort> parseExposedPort(const QByteArray& body, int requestedPort,
                                      const QString& what)
{
    using Json = nlohmann::json;
    const Json j = Json::parse(body.constBegin(), body.constEnd(), nullptr, false);
    if (j.is_discarded())
        return protocolError(
            QStringLiteral("the answer is not JSON: %1").arg(QString::fromUtf8(body.left(200))),
            what);
    try {
        const JsonReader r(j, QStringLiteral("exposed port"));
        ExposedPort p;
        p.hostname = r.requiredString("hostname");
        p.url = r.requiredString("url");
        p.accessToken = r.requiredString("accessToken");
        p.port = int(r.integer("port", requestedPort));
        if (p.port != requestedPort)
            return protocolError(
                QStringLiteral("asked to expose port %1, the answer is for port %2")
                    .arg(requestedPort)
                    .arg(p.port),
                what);
        return p;
    } catch (const JsonShapeError& e) {
        return protocolError(QString::fromStdString(e.what()), what);
    } catch (const Json::exception& e) {
        return protocolError(QString::fromStdString(e.what()), what);
    }
}

} // namespace lizard::client
