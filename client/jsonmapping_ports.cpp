// JSON of the port calls.
#include "client/jsonhelpers.h"
#include "client/jsonmapping.h"

namespace lizard::client {

using namespace jsonhelpers;

Outcome<ExposedPort> parseExposedPort(const QByteArray& body, int requestedPort,
                                      const QString& what)
{
    return parseWith<ExposedPort>(body, what, [requestedPort](const Json& j) {
        const JsonReader r(j, QStringLiteral("exposed port"));
        ExposedPort p;
        p.hostname = r.requiredString("hostname");
        p.url = r.requiredString("url");
        p.accessToken = r.requiredString("accessToken");
        p.port = int(r.integer("port", requestedPort));
        if (p.port != requestedPort)
            throw JsonShapeError(
                QStringLiteral("asked to expose port %1, the answer is for port %2")
                    .arg(requestedPort)
                    .arg(p.port)
                    .toStdString());
        return p;
    });
}

} // namespace lizard::client
