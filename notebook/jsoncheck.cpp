#include "notebook/jsoncheck.h"

#include <limits>

namespace lizard::notebook {

bool JsonCheck::fail(const QString& where, const QString& what)
{
    if (!m_failed) {
        m_failed = true;
        m_error = {m_file, where.isEmpty() ? QStringLiteral("top level") : where, what};
    }
    return false;
}

const nlohmann::json* JsonCheck::member(const nlohmann::json& obj, const char* key,
                                        const QString& where, bool required)
{
    auto it = obj.find(key);
    if (it != obj.end())
        return &*it;
    if (required)
        fail(where, QStringLiteral("required field \"%1\" is missing").arg(QLatin1String(key)));
    return nullptr;
}

bool JsonCheck::isObject(const nlohmann::json& v, const QString& where)
{
    return v.is_object() ||
           fail(where, QStringLiteral("expected an object, found %1").arg(describe(v)));
}

bool JsonCheck::isArray(const nlohmann::json& v, const QString& where)
{
    return v.is_array() ||
           fail(where, QStringLiteral("expected a list, found %1").arg(describe(v)));
}

bool JsonCheck::string(const nlohmann::json& v, const QString& where, QString* out)
{
    if (!v.is_string())
        return fail(where, QStringLiteral("expected a string, found %1").arg(describe(v)));
    *out = QString::fromStdString(v.get<std::string>());
    return true;
}

bool JsonCheck::multiline(const nlohmann::json& v, const QString& where, QString* out)
{
    if (v.is_string())
        return string(v, where, out);
    if (!v.is_array())
        return fail(
            where,
            QStringLiteral("expected a string or a list of strings, found %1").arg(describe(v)));
    std::string joined;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string())
            return fail(item(where, i),
                        QStringLiteral("expected a string, found %1").arg(describe(v[i])));
        joined += v[i].get_ref<const std::string&>();
    }
    *out = QString::fromStdString(joined);
    return true;
}

bool JsonCheck::stringList(const nlohmann::json& v, const QString& where, QStringList* out)
{
    if (!isArray(v, where))
        return false;
    out->clear();
    for (std::size_t i = 0; i < v.size(); ++i) {
        QString s;
        if (!string(v[i], item(where, i), &s))
            return false;
        out->append(s);
    }
    return true;
}

bool JsonCheck::optionalInt(const nlohmann::json& v, const QString& where, std::optional<int>* out)
{
    if (v.is_null()) {
        out->reset();
        return true;
    }
    if (v.is_number_unsigned() &&
        v.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<int>::max())) {
        *out = int(v.get<std::uint64_t>());
        return true;
    }
    if (v.is_number_integer() && !v.is_number_unsigned()) {
        const std::int64_t n = v.get<std::int64_t>();
        if (n >= std::numeric_limits<int>::min() && n <= std::numeric_limits<int>::max()) {
            *out = int(n);
            return true;
        }
    }
    return fail(where, QStringLiteral("expected an integer or null, found %1").arg(describe(v)));
}

QString JsonCheck::describe(const nlohmann::json& v)
{
    switch (v.type()) {
    case nlohmann::json::value_t::null:
        return QStringLiteral("null");
    case nlohmann::json::value_t::object:
        return QStringLiteral("an object");
    case nlohmann::json::value_t::array:
        return QStringLiteral("a list");
    case nlohmann::json::value_t::string:
        return QStringLiteral("a string");
    case nlohmann::json::value_t::boolean:
        return QStringLiteral("a boolean");
    case nlohmann::json::value_t::number_float:
        return QStringLiteral("the number %1").arg(QString::fromStdString(v.dump()));
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
        return QStringLiteral("the integer %1").arg(QString::fromStdString(v.dump()));
    default:
        return QStringLiteral("an unsupported value");
    }
}

QString JsonCheck::child(const QString& where, const char* key)
{
    return where.isEmpty() ? QString::fromLatin1(key) : where + u'.' + QLatin1String(key);
}

QString JsonCheck::item(const QString& where, std::size_t index)
{
    return QStringLiteral("%1[%2]").arg(where).arg(index);
}

} // namespace lizard::notebook
