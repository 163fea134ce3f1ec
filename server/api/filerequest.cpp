#include "api/filerequest.h"

#include "api/jsonbody.h"

namespace lizard::api {

Status checkPath(const std::string& path, const std::string& field)
{
    if (path.empty() || path.front() != '/')
        return invalidArgument("\"" + field + "\" must be an absolute path, got \"" + path + "\"");
    if (path.size() > 4096 || path.find('\0') != std::string::npos)
        return invalidArgument("\"" + field + "\" is not a valid path");
    return okStatus();
}

Result<std::string> bodyPath(const Fields& fields, const std::string& name)
{
    auto v = fields.requiredString(name);
    if (!v)
        return v;
    if (Status s = checkPath(*v, name); !s)
        return s.error();
    return v;
}

Result<std::string> fileUser(std::optional<std::string> user)
{
    const std::string u = user.value_or("root");
    if (u.empty() || u.size() > 64 || u.find_first_of("/:\n") != std::string::npos ||
        u.find('\0') != std::string::npos)
        return invalidArgument("\"user\" is not a valid user name");
    return u;
}

} // namespace lizard::api
