#pragma once
// Users of the sandbox, read from the sandbox's own /etc/passwd at request time.

#include <optional>
#include <string>
#include <sys/types.h>

namespace lizard::agent {

struct UserInfo
{
    std::string name;
    uid_t uid = 0;
    gid_t gid = 0;
    std::string home;
    std::string shell = "/bin/sh"; // the login shell (a terminal's default command)
};

// `singleUid`: only uid 0 is mapped in this sandbox, so every user runs as uid 0 but keeps
// its name and home (capabilities().fullUidRange == false).
std::optional<UserInfo> lookupUser(const std::string& name, bool singleUid);

} // namespace lizard::agent
