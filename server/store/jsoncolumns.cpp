#include "store/jsoncolumns.h"

#include <nlohmann/json.hpp>

namespace lizard::store {

std::string mapToJson(const std::map<std::string, std::string>& m)
{
    return nlohmann::json(m).dump();
}

std::map<std::string, std::string> mapFromJson(const std::string& text)
{
    std::map<std::string, std::string> out;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_object()) {
        for (const auto& [k, v] : j.items()) {
            if (v.is_string())
                out[k] = v.get<std::string>();
        }
    }
    return out;
}

std::vector<std::string> listFromJson(const std::string& text)
{
    std::vector<std::string> out;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_array()) {
        for (const auto& v : j) {
            if (v.is_string())
                out.push_back(v.get<std::string>());
        }
    }
    return out;
}

} // namespace lizard::store
