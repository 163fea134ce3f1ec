#pragma once
// Internal to the JSON mapping files (jsonmapping*.cpp): parse a body with a shape function,
// lists of items, dumping, and the sandbox info shape that other answers embed.

#include "client/activitypage.h"
#include "client/errormapping.h"
#include "client/jsonreader.h"
#include "client/outcome.h"

#include <nlohmann/json.hpp>

namespace lizard::client::jsonhelpers {

using Json = nlohmann::json;

inline std::string utf8(const QString& s)
{
    return s.toStdString();
}

inline Json stringMapJson(const QMap<QString, QString>& map)
{
    Json out = Json::object();
    for (auto it = map.begin(); it != map.end(); ++it)
        out[utf8(it.key())] = utf8(it.value());
    return out;
}

inline QByteArray dump(const Json& j)
{
    return QByteArray::fromStdString(j.dump(-1, ' ', false, Json::error_handler_t::replace));
}

// Parses body and hands the JSON to fn; any shape error becomes a Protocol ApiError.
template <class T, class Fn>
Outcome<T> parseWith(const QByteArray& body, const QString& what, Fn fn)
{
    const Json j = Json::parse(body.constBegin(), body.constEnd(), nullptr, false);
    if (j.is_discarded())
        return protocolError(
            QStringLiteral("the answer is not JSON: %1").arg(QString::fromUtf8(body.left(200))),
            what);
    try {
        return Outcome<T>(fn(j));
    } catch (const JsonShapeError& e) {
        return protocolError(QString::fromStdString(e.what()), what);
    } catch (const Json::exception& e) {
        return protocolError(QString::fromStdString(e.what()), what);
    }
}

template <class T, class Item> QList<T> listOf(const Json& j, const char* where, Item item)
{
    if (!j.is_array())
        throw JsonShapeError(std::string(where) + ": expected an array");
    QList<T> out;
    out.reserve(qsizetype(j.size()));
    for (const Json& e : j)
        out.append(item(e));
    return out;
}

// One activity entry (jsonmapping_activity.cpp); nullopt for one the app cannot read.
std::optional<ActivityEntry> activityEntryFromJson(const Json& value);

// The sandbox info object (accepts `id` for `sandboxId`); defined in jsonmapping.cpp.
SandboxInfo sandboxFromJson(const Json& j);

} // namespace lizard::client::jsonhelpers
