#include "agent/serve/fileops.h"
#include "agent/serve/filepaths.h"
#include "agent/serve/pathguard.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace lizard::agent {

std::string errnoCode(int err)
{
    switch (err) {
    case ENOENT:
        return "NOT_FOUND";
    case ENOTDIR:
        return "NOT_A_DIRECTORY";
    case EISDIR:
        return "IS_A_DIRECTORY";
    case EACCES:
    case EPERM:
    case EROFS:
        return "PERMISSION_DENIED";
    case EEXIST:
    case ENOTEMPTY:
        return "ALREADY_EXISTS";
    case EINVAL:
    case ENAMETOOLONG:
    case ELOOP:
        return "INVALID_ARGUMENT";
    default:
        return "IO_ERROR";
    }
}

bool writeErrno(FrameStream& stream, int err, const std::string& path)
{
    return stream.writeError(errnoCode(err), path + ": " + std::strerror(err));
}

bool writePathErrno(FrameStream& stream, int err, const std::string& path)
{
    if (reachedThroughMagicLink(path, err))
        return stream.writeError("PERMISSION_DENIED", magicLinkMessage(path));
    return writeErrno(stream, err, path);
}

bool parentIsMagic(const std::string& path)
{
    auto slash = path.find_last_of('/');
    const std::string parent =
        slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
    return reachedThroughMagicLink(parent, checkParent(path));
}

bool refuseMagicParent(FrameStream& stream, const std::string& path)
{
    if (!parentIsMagic(path))
        return false;
    stream.writeError("PERMISSION_DENIED", magicLinkMessage(path));
    return true;
}

int makeDirs(const std::string& path)
{
    for (const std::string& dir : dirChain(path))
        if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
            return errno;
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) != 0)
        return errno;
    return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

int makeParents(const std::string& path)
{
    const std::string parent = parentDir(path);
    return parent.empty() ? 0 : makeDirs(parent);
}

} // namespace lizard::agent

namespace lizard::agent {

std::optional<std::string> requirePath(FrameStream& stream, const nlohmann::json& request,
                                       const char* key)
{
    auto it = request.find(key);
    if (it == request.end() || !it->is_string()) {
        stream.writeError("INVALID_ARGUMENT", std::string(key) + " must be a string");
        return std::nullopt;
    }
    auto path = requestPath(it->get<std::string>());
    if (!path)
        stream.writeError("INVALID_ARGUMENT", std::string(key) + " must be an absolute path: " +
                                                  it->get<std::string>());
    return path;
}

std::optional<UserInfo> requireUser(FrameStream& stream, const nlohmann::json& request,
                                    const AgentContext& context)
{
    std::string name = "root";
    if (auto it = request.find("user");
        it != request.end() && it->is_string() && !it->get<std::string>().empty())
        name = it->get<std::string>();
    auto user = lookupUser(name, context.singleUid);
    if (!user)
        stream.writeError("UNKNOWN_USER", "no such user in the sandbox: " + name);
    return user;
}

} // namespace lizard::agent
