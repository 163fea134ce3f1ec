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
    // Each variable is an array in the order of `columns` (compact: one event line for hundreds).
    const QJsonArray columns = answer.value(QStringLiteral("columns")).toArray();
    const auto column = [&columns](const QJsonArray& row, const char* name) {
        for (qsizetype i = 0; i < columns.size(); ++i) {
            if (columns.at(i).toString() == QLatin1String(name))
                return row.at(i);
        }
        return QJsonValue();
    };
    for (const QJsonValue& v : answer.value(QStringLiteral("variables")).toArray()) {
        const QJsonArray row = v.toArray();
        listing.variables.append({column(row, "name").toString(), column(row, "type").toString(),
                                  column(row, "shape").toString(),
                                  qint64(column(row, "size").toDouble(-1)),
                                  column(row, "preview").toString(), QString()});
    }
    if (listing.variables.size() == 1)
        listing.variables.first().repr = answer.value(QStringLiteral("repr")).toString();
    return listing;
}

} // namespace lizard::client
