#include "client/coderun/variablelisting.h"

#include <QJsonArray>

namespace lizard::client {

QJsonObject variablesRequest(const QString& contextId, const QString& language, const QString& name)
{
    QJsonObject req{{QStringLiteral("action"), QStringLiteral("list_variables")}};
    if (contextId.isEmpty())
        req.insert(QStringLiteral("language"), language);
    else
        req.insert(QStringLiteral("context"), contextId);
    if (!name.isEmpty())
        req.insert(QStringLiteral("name"), name);
    return req;
}

VariableListing toVariableListing(const QJsonObject& answer)
{
    VariableListing listing;
    listing.kernel = answer.value(QStringLiteral("kernel")).toBool();
    for (const QJsonValue& v : answer.value(QStringLiteral("variables")).toArray()) {
        const QJsonObject o = v.toObject();
        listing.variables.append({o.value(QStringLiteral("name")).toString(),
                                  o.value(QStringLiteral("type")).toString(),
                                  o.value(QStringLiteral("shape")).toString(),
                                  qint64(o.value(QStringLiteral("size")).toDouble(-1)),
                                  o.value(QStringLiteral("preview")).toString(),
                                  o.value(QStringLiteral("repr")).toString()});
    }
    return listing;
}

} // namespace lizard::client
