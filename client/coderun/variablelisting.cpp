#include "client/coderun/variablelisting.h"

namespace lizard::client {

using nlohmann::json;

json variablesRequest(const QString& contextId, const QString& language, const QString& name)
{
    json req{{"action", "list_variables"}};
    if (contextId.isEmpty())
        req["language"] = language.toStdString();
    else
        req["context"] = contextId.toStdString();
    if (!name.isEmpty())
        req["name"] = name.toStdString();
    return req;
}

VariableListing toVariableListing(const JsonReader& answer)
{
    VariableListing listing;
    listing.kernel = answer.boolean("kernel", false);
    // Each variable is an array in the order of `columns` (compact: one event line for hundreds).
    const QStringList columns = answer.stringList("columns");
    const json* variables = answer.find("variables");
    if (variables == nullptr)
        return listing;
    if (!variables->is_array())
        answer.fail("variables", "an array of rows");
    for (const json& row : *variables) {
        if (!row.is_array())
            answer.fail("variables", "an array of rows");
        json named = json::object();
        for (qsizetype i = 0; i < columns.size() && std::size_t(i) < row.size(); ++i)
            named[columns.at(i).toStdString()] = row[std::size_t(i)];
        const JsonReader v(named, QStringLiteral("a variable"));
        listing.variables.append({v.string("name"), v.string("type"), v.string("shape"),
                                  v.integer("size", -1), v.string("preview"), QString()});
    }
    if (listing.variables.size() == 1)
        listing.variables.first().repr = answer.string("repr");
    return listing;
}

} // namespace lizard::client
