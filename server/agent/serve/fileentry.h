#pragma once
// The JSON entry of one file (list/stat), as PROTOCOL.md describes.

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <sys/types.h>

namespace lizard::agent {

// Names of users and groups, read once per request from the sandbox's /etc.
class OwnerNames
{
public:
    OwnerNames();
    std::string user(uid_t uid) const;
    std::string group(gid_t gid) const;

private:
    std::map<unsigned, std::string> m_users, m_groups;
};

// lstat()s `path`; nothing (errno set) if that fails.
std::optional<nlohmann::json> fileEntry(const std::string& path, const std::string& name,
                                        const OwnerNames& names);

} // namespace lizard::agent
