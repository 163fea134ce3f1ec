#include "api/routetable.h"

#include "http/target.h"

namespace lizard::api {

std::vector<std::string> splitPath(std::string_view path)
{
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos < path.size()) {
        if (path[pos] == '/') {
            ++pos;
            continue;
        }
        const size_t end = std::min(path.find('/', pos), path.size());
        out.push_back(http::percentDecode(path.substr(pos, end - pos), false));
        pos = end;
    }
    return out;
}

uint64_t bodyLimitFor(http::bhttp::verb method, std::string_view target)
{
    if (method != http::bhttp::verb::post)
        return kDefaultBodyLimit;
    const auto segs = splitPath(http::targetPath(target));
    // POST /api/sandboxes/{id}/files carries whole files (base64 in JSON).
    if (segs.size() == 4 && segs[0] == "api" && segs[1] == "sandboxes" && segs[3] == "files")
        return kUploadBodyLimit;
    return kDefaultBodyLimit;
}

void RouteTable::add(http::bhttp::verb method, const std::string& pattern, RouteHandler handler)
{
    m_routes.push_back(Route{method, splitPath(pattern), std::move(handler)});
}

bool RouteTable::match(const Route& route, const std::vector<std::string>& segments, Params& params)
{
    if (route.segments.size() != segments.size())
        return false;
    params.clear();
    for (size_t i = 0; i < segments.size(); ++i) {
        if (route.segments[i] == "{}")
            params.push_back(segments[i]);
        else if (route.segments[i] != segments[i])
            return false;
    }
    return true;
}

RouteTable::Match RouteTable::resolve(http::bhttp::verb method, std::string_view path) const
{
    const auto segments = splitPath(path);
    Match m;
    for (const Route& route : m_routes) {
        if (!match(route, segments, m.params))
            continue;
        if (route.method == method) {
            m.handler = &route.handler;
            m.allowed.clear();
            return m;
        }
        m.allowed +=
            (m.allowed.empty() ? "" : ", ") + std::string(http::bhttp::to_string(route.method));
    }
    m.params.clear();
    return m;
}

} // namespace lizard::api
