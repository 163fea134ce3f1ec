#pragma once
// Typed, tolerant access to JSON objects for jsonmapping.cpp: absent or null optional fields
// give defaults; a field of the wrong type throws JsonShapeError, which jsonmapping turns into
// an ApiError of kind Protocol (the exception never leaves jsonmapping.cpp).

#include <QDateTime>
#include <QMap>
#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

namespace lizard::client {

struct JsonShapeError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

class JsonReader
{
public:
    // Throws JsonShapeError if value is not an object. `where` names it in messages.
    JsonReader(const nlohmann::json& value, QString where);

    bool has(const char* key) const; // present and not null
    QString requiredString(const char* key) const;
    QString string(const char* key, const QString& fallback = {}) const;
    std::optional<QString> optionalString(const char* key) const;
    double number(const char* key, double fallback = 0) const;
    qint64 integer(const char* key, qint64 fallback = 0) const;
    bool boolean(const char* key, bool fallback) const;
    // ISO-8601 string or unix milliseconds; invalid QDateTime when absent.
    QDateTime time(const char* key) const;
    QStringList stringList(const char* key) const;
    QMap<QString, QString> stringMap(const char* key) const;
    const nlohmann::json* find(const char* key) const; // nullptr when absent or null
    const nlohmann::json& value() const { return m_value; }

    [[noreturn]] void fail(const char* key, const char* expected) const;

private:
    const nlohmann::json& m_value;
    QString m_where;
};

// The string field `key` of an object, or "" when it is absent or not a string: for readers
// that skip what they do not understand instead of refusing it (stream events, log lines).
QString stringField(const nlohmann::json& object, const char* key);

} // namespace lizard::client
