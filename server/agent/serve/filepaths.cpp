#include "agent/serve/filepaths.h"

namespace lizard::agent {

std::optional<std::string> requestPath(std::string path)
{
    if (path.empty() || path[0] != '/' || path.find('\0') != std::string::npos)
        return std::nullopt;
    while (path.size() > 1 && path.back() == '/')
        path.pop_back();
    return path;
}

std::vector<std::string> dirChain(const std::string& path)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < path.size()) {
        auto next = path.find('/', pos + 1);
        if (next == std::string::npos)
            next = path.size();
        std::string current = path.substr(0, next);
        pos = next;
        if (current.empty() || current == "/")
            continue;
        out.push_back(std::move(current));
    }
    return out;
}

std::string parentDir(const std::string& path)
{
    auto slash = path.find_last_of('/');
    if (slash == std::string::npos || slash == 0)
        return {};
    return path.substr(0, slash);
}

std::string joinPath(const std::string& dir, const std::string& name)
{
    return dir == "/" ? "/" + name : dir + "/" + name;
}

std::string baseName(const std::string& path)
{
    return path == "/" ? "/" : path.substr(path.find_last_of('/') + 1);
}

} // namespace lizard::agent
