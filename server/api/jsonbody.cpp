#include "api/jsonbody.h"

#include <cmath>

namespace lizard::api {

namespace {

const char* typeName(const nlohmann::json& v)
{
    switch (v.type()) {
    case nlohmann::json::value_t::string:
        return "a string";
    case nlohmann::json::value_t::boolean:
        return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
        return "a number";
    case nlohmann::json::value_t::array:
        return "an array";
    case nlohmann::json::value_t::object:
        return "an object";
    default:
        return "null";
    }
}

// nlohmann's own DOM builder, refusing to open a container deeper than kMaxJsonDepth. The
// parser keeps its state on the heap (no recursion), so a 10 MB "[[[[..." costs one linear
// pass up to the limit and is then abandoned; the depth counts objects and arrays alike.
class DepthLimitedBuilder : public nlohmann::detail::json_sax_dom_parser<nlohmann::json>
{
public:
    explicit DepthLimitedBuilder(nlohmann::json& result) : json_sax_dom_parser(result, false) {}

    bool start_object(std::size_t n) { return enter() && json_sax_dom_parser::start_object(n); }
    bool start_array(std::size_t n) { return enter() && json_sax_dom_parser::start_array(n); }
    bool end_object()
    {
        --m_depth;
        return json_sax_dom_parser::end_object();
    }
    bool end_array()
    {
        --m_depth;
        return json_sax_dom_parser::end_array();
    }
    bool tooDeep() const { return m_tooDeep; }

private:
    bool enter()
    {
        if (++m_depth <= kMaxJsonDepth)
            return true;
        m_tooDeep = true;
        return false;
    }

    std::size_t m_depth = 0;
    bool m_tooDeep = false;
};

Error wrongType(const std::string& name, const char* expected, const nlohmann::json& got)
{
    return invalidArgument("field \"" + name + "\" must be " + expected + ", got " + typeName(got));
}

} // namespace

Error invalidArgument(const std::string& message)
{
    return Error{ErrorKind::InvalidArgument, "INVALID_ARGUMENT", message};
}

Result<nlohmann::json> parseJsonObject(const http::Request& request)
{
    const std::string& body = request.body();
    if (body.find_first_not_of(" \t\r\n") == std::string::npos)
        return nlohmann::json::object();
    nlohmann::json j;
    DepthLimitedBuilder builder(j);
    const bool parsed = nlohmann::json::sax_parse(body, &builder);
    if (builder.tooDeep())
        return Error{ErrorKind::InvalidArgument, "INVALID_JSON",
                     "the request body nests objects or arrays deeper than " +
                         std::to_string(kMaxJsonDepth) + " levels"};
    if (!parsed || builder.is_errored())
        return Error{ErrorKind::InvalidArgument, "INVALID_JSON",
                     "the request body is not valid JSON"};
    if (!j.is_object())
        return Error{ErrorKind::InvalidArgument, "INVALID_JSON",
                     std::string("the request body must be a JSON object, got ") + typeName(j)};
    return j;
}

bool Fields::has(const std::string& name) const
{
    const auto it = m_obj.find(name);
    return it != m_obj.end() && !it->is_null();
}

Result<std::optional<std::string>> Fields::optString(const std::string& name) const
{
    const auto it = m_obj.find(name);
    if (it == m_obj.end() || it->is_null())
        return std::optional<std::string>();
    if (!it->is_string())
        return wrongType(name, "a string", *it);
    return std::optional<std::string>(it->get<std::string>());
}

Result<std::string> Fields::requiredString(const std::string& name) const
{
    auto v = optString(name);
    if (!v)
        return v.error();
    if (!v.value() || v.value()->empty())
        return invalidArgument("field \"" + name + "\" is required (a non-empty string)");
    return **v;
}

Result<std::optional<bool>> Fields::optBool(const std::string& name) const
{
    const auto it = m_obj.find(name);
    if (it == m_obj.end() || it->is_null())
        return std::optional<bool>();
    if (!it->is_boolean())
        return wrongType(name, "a boolean", *it);
    return std::optional<bool>(it->get<bool>());
}

Result<std::optional<int64_t>> Fields::optInt(const std::string& name) const
{
    const auto it = m_obj.find(name);
    if (it == m_obj.end() || it->is_null())
        return std::optional<int64_t>();
    // Unsigned first: is_number_integer() is true for unsigned numbers too, and reading one
    // above INT64_MAX as int64_t wraps it to a negative number.
    if (it->is_number_unsigned()) {
        const uint64_t u = it->get<uint64_t>();
        if (u > uint64_t(INT64_MAX))
            return invalidArgument("field \"" + name + "\" is out of range");
        return std::optional<int64_t>(int64_t(u));
    }
    if (it->is_number_integer())
        return std::optional<int64_t>(it->get<int64_t>());
    if (it->is_number_float()) {
        const double d = it->get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15)
            return std::optional<int64_t>(int64_t(d));
        return invalidArgument("field \"" + name + "\" must be an integer");
    }
    return wrongType(name, "an integer", *it);
}

Result<std::map<std::string, std::string>> Fields::stringMap(const std::string& name) const
{
    std::map<std::string, std::string> out;
    const auto it = m_obj.find(name);
    if (it == m_obj.end() || it->is_null())
        return out;
    if (!it->is_object())
        return wrongType(name, "an object of strings", *it);
    for (const auto& [k, v] : it->items()) {
        if (!v.is_string())
            return invalidArgument("field \"" + name + "." + k + "\" must be a string, got " +
                                   typeName(v));
        out[k] = v.get<std::string>();
    }
    return out;
}

Result<std::vector<std::string>> Fields::stringArray(const std::string& name) const
{
    std::vector<std::string> out;
    const auto it = m_obj.find(name);
    if (it == m_obj.end() || it->is_null())
        return out;
    if (!it->is_array())
        return wrongType(name, "an array of strings", *it);
    for (size_t i = 0; i < it->size(); ++i) {
        const auto& v = (*it)[i];
        if (!v.is_string())
            return invalidArgument("field \"" + name + "[" + std::to_string(i) +
                                   "]\" must be a string, got " + typeName(v));
        out.push_back(v.get<std::string>());
    }
    return out;
}

} // namespace lizard::api
