#include "client/jsonreader.h"

#include <cmath>

namespace lizard::client {

JsonReader::JsonReader(const nlohmann::json& value, QString where)
    : m_value(value), m_where(std::move(where))
{
    if (!value.is_object())
        throw JsonShapeError(QStringLiteral("%1: expected an object").arg(m_where).toStdString());
}

void JsonReader::fail(const char* key, const char* expected) const
{
    throw JsonShapeError(QStringLiteral("%1: field \"%2\" should be %3")
                             .arg(m_where, QLatin1String(key), QLatin1String(expected))
                             .toStdString());
}

const nlohmann::json* JsonReader::find(const char* key) const
{
    const auto it = m_value.find(key);
    if (it == m_value.end() || it->is_null())
        return nullptr;
    return &*it;
}

bool JsonReader::has(const char* key) const
{
    return find(key) != nullptr;
}

QString JsonReader::requiredString(const char* key) const
{
    const nlohmann::json* v = find(key);
    if (v == nullptr || !v->is_string())
        fail(key, "a string (required)");
    return QString::fromStdString(v->get<std::string>());
}

QString JsonReader::string(const char* key, const QString& fallback) const
{
    return optionalString(key).value_or(fallback);
}

std::optional<QString> JsonReader::optionalString(const char* key) const
{
    const nlohmann::json* v = find(key);
    if (v == nullptr)
        return std::nullopt;
    if (!v->is_string())
        fail(key, "a string");
    return QString::fromStdString(v->get<std::string>());
}

double JsonReader::number(const char* key, double fallback) const
{
    const nlohmann::json* v = find(key);
    if (v == nullptr)
        return fallback;
    if (!v->is_number())
        fail(key, "a number");
    return v->get<double>();
}

qint64 JsonReader::integer(const char* key, qint64 fallback) const
{
    const nlohmann::json* v = find(key);
    if (v == nullptr)
        return fallback;
    if (v->is_number_integer())
        return v->get<qint64>();
    if (!v->is_number())
        fail(key, "an integer");
    const double d = v->get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e15)
        fail(key, "an integer");
    return qint64(d);
}

bool JsonReader::boolean(const char* key, bool fallback) const
{
    const nlohmann::json* v = find(key);
    if (v == nullptr)
        return fallback;
    if (!v->is_boolean())
        fail(key, "true or false");
    return v->get<bool>();
}

QDateTime JsonReader::time(const char* key) const
{
    const nlohmann::json* v = find(key);
    if (v == nullptr)
        return {};
    if (v->is_number()) {
        const double ms = v->get<double>();
        if (!std::isfinite(ms))
            fail(key, "a time (unix ms)");
        return QDateTime::fromMSecsSinceEpoch(qint64(ms), Qt::UTC);
    }
    if (!v->is_string())
        fail(key, "a time (ISO-8601 text or unix ms)");
    const QString text = QString::fromStdString(v->get<std::string>());
    if (text.isEmpty())
        return {};
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid())
        fail(key, "an ISO-8601 time");
    return t.toUTC();
}

QStringList JsonReader::stringList(const char* key) const
{
    const nlohmann::json* v = find(key);
    if (v == nullptr)
        return {};
    if (!v->is_array())
        fail(key, "an array of strings");
    QStringList out;
    for (const auto& item : *v) {
        if (!item.is_string())
            fail(key, "an array of strings");
        out.append(QString::fromStdString(item.get<std::string>()));
    }
    return out;
}

QMap<QString, QString> JsonReader::stringMap(const char* key) const
{
    const nlohmann::json* v = find(key);
    if (v == nullptr)
        return {};
    if (!v->is_object())
        fail(key, "an object of strings");
    QMap<QString, QString> out;
    for (auto it = v->begin(); it != v->end(); ++it) {
        if (!it.value().is_string())
            fail(key, "an object of strings");
        out.insert(QString::fromStdString(it.key()),
                   QString::fromStdString(it.value().get<std::string>()));
    }
    return out;
}

QString stringField(const nlohmann::json& object, const char* key)
{
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

} // namespace lizard::client
