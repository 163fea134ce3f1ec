#include "api/changescompare.h"

#include <map>
#include <string>

namespace lizard::api {

namespace {

using Json = nlohmann::json;

std::map<std::string, const Json*> byPath(const Json& list)
{
    std::map<std::string, const Json*> out;
    if (list.is_array())
        for (const Json& c : list)
            if (c.is_object() && c.contains("path") && c["path"].is_string())
                out.emplace(c["path"].get<std::string>(), &c);
    return out;
}

std::string field(const Json& c, const char* name)
{
    const auto it = c.find(name);
    return it != c.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Json entry(const Json& from, const std::string& kind)
{
    Json e = {{"path", from["path"]},
              {"kind", kind},
              {"type", from.value("type", "file")},
              {"size", from.value("size", 0)},
              {"mode", from.value("mode", 0)}};
    return e;
}

bool same(const Json& a, const Json& b)
{
    if (field(a, "type") != field(b, "type") || a.value("mode", 0) != b.value("mode", 0))
        return false;
    if (field(a, "type") == "dir")
        return true; // its entries say what changed in it
    return a.value("size", 0) == b.value("size", 0) &&
           a.value("mtimeNs", int64_t(0)) == b.value("mtimeNs", int64_t(0));
}

} // namespace

nlohmann::json compareChanges(const nlohmann::json& mine, const nlohmann::json& theirs)
{
    const auto a = byPath(mine);
    const auto b = byPath(theirs);
    Json out = Json::array();
    auto ia = a.begin();
    auto ib = b.begin();
    while (ia != a.end() || ib != b.end()) {
        const bool takeA = ib == b.end() || (ia != a.end() && ia->first < ib->first);
        const bool takeB = ia == a.end() || (ib != b.end() && ib->first < ia->first);
        if (takeA) { // theirs is the template's there
            const Json& c = *ia->second;
            out.push_back(entry(c, field(c, "kind")));
            ++ia;
        } else if (takeB) { // mine is the template's there: the opposite of their change
            const Json& c = *ib->second;
            const std::string kind = field(c, "kind");
            Json e = entry(c, kind == "added"     ? "deleted"
                              : kind == "deleted" ? "added"
                                                  : "modified");
            if (kind == "modified" && c.contains("was"))
                e["type"] = c["was"]; // the template's type, which mine still has
            out.push_back(std::move(e));
            ++ib;
        } else {
            const Json& ca = *ia->second;
            const Json& cb = *ib->second;
            const bool goneA = field(ca, "kind") == "deleted";
            const bool goneB = field(cb, "kind") == "deleted";
            if (goneA && !goneB) {
                out.push_back(entry(cb, "deleted"));
            } else if (!goneA && goneB) {
                out.push_back(entry(ca, "added"));
            } else if (!goneA && !same(ca, cb)) {
                Json e = entry(ca, "modified");
                if (field(ca, "type") != field(cb, "type"))
                    e["was"] = cb["type"];
                out.push_back(std::move(e));
            }
            ++ia;
            ++ib;
        }
    }
    return out;
}

} // namespace lizard::api
