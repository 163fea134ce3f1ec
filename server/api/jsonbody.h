#pragma once
// Reading request bodies: JSON parsing (400 INVALID_JSON, also for nesting deeper than 64)
// and typed field access that names the field and the expected type (400 INVALID_ARGUMENT).
// null counts as absent.

#include "common/result.h"
#include "http/beast.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace lizard::api {

// Objects and arrays nested deeper than this are refused (400 INVALID_JSON) while parsing.
inline constexpr std::size_t kMaxJsonDepth = 64;

// An empty body is an empty object; anything else must be one JSON object.
Result<nlohmann::json> parseJsonObject(const http::Request& request);

class Fields
{
public:
    explicit Fields(const nlohmann::json& object) : m_obj(object) {}

    bool has(const std::string& name) const;
    Result<std::optional<std::string>> optString(const std::string& name) const;
    Result<std::string> requiredString(const std::string& name) const; // non-empty
    Result<std::optional<bool>> optBool(const std::string& name) const;
    Result<std::optional<int64_t>> optInt(const std::string& name) const; // integral numbers only
    Result<std::map<std::string, std::string>> stringMap(const std::string& name) const;
    Result<std::vector<std::string>> stringArray(const std::string& name) const;

private:
    const nlohmann::json& m_obj;
};

Error invalidArgument(const std::string& message);

} // namespace lizard::api
