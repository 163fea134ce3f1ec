#include "agent/serve/fileentry.h"

#include "agent/serve/pathguard.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace lizard::agent {

namespace {

std::map<unsigned, std::string> readNames(const char* file)
{
    std::map<unsigned, std::string> names;
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::istringstream s(line);
        std::string f;
        while (std::getline(s, f, ':'))
            fields.push_back(f);
        if (fields.size() >= 3) {
            try {
                names.emplace(unsigned(std::stoul(fields[2])), fields[0]);
            } catch (const std::exception&) {
            }
        }
    }
    return names;
}

std::string permissionString(mode_t mode)
{
    std::string s(10, '-');
    s[0] = S_ISDIR(mode)    ? 'd'
           : S_ISLNK(mode)  ? 'l'
           : S_ISCHR(mode)  ? 'c'
           : S_ISBLK(mode)  ? 'b'
           : S_ISFIFO(mode) ? 'p'
           : S_ISSOCK(mode) ? 's'
                            : '-';
    const char* rwx = "rwxrwxrwx";
    for (int i = 0; i < 9; ++i)
        if (mode & (0400 >> i))
            s[std::size_t(i + 1)] = rwx[i];
    if (mode & S_ISUID)
        s[3] = (mode & S_IXUSR) ? 's' : 'S';
    if (mode & S_ISGID)
        s[6] = (mode & S_IXGRP) ? 's' : 'S';
    if (mode & S_ISVTX)
        s[9] = (mode & S_IXOTH) ? 't' : 'T';
    return s;
}

} // namespace

OwnerNames::OwnerNames() : m_users(readNames("/etc/passwd")), m_groups(readNames("/etc/group")) {}

std::string OwnerNames::user(uid_t uid) const
{
    auto it = m_users.find(uid);
    return it != m_users.end() ? it->second : std::to_string(uid);
}

std::string OwnerNames::group(gid_t gid) const
{
    auto it = m_groups.find(gid);
    return it != m_groups.end() ? it->second : std::to_string(gid);
}

std::optional<nlohmann::json> fileEntry(const std::string& path, const std::string& name,
                                        const OwnerNames& names)
{
    struct stat st
    {
    };
    if (::lstat(path.c_str(), &st) != 0)
        return std::nullopt;
    const char* type = S_ISDIR(st.st_mode) ? "dir" : S_ISLNK(st.st_mode) ? "symlink" : "file";
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", unsigned(st.st_mode & 07777));
    auto modTime = std::int64_t(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
    nlohmann::json entry{{"name", name},
                         {"path", path},
                         {"type", type},
                         {"size", std::int64_t(st.st_size)},
                         {"mode", mode},
                         {"permissions", permissionString(st.st_mode)},
                         {"owner", names.user(st.st_uid)},
                         {"group", names.group(st.st_gid)},
                         {"modTime", modTime}};
    // A /proc magic link's text is a path outside the sandbox (a host path for PID 1's files).
    if (S_ISLNK(st.st_mode) && !isMagicLink(path)) {
        std::string target(4096, '\0');
        ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
        if (n >= 0) {
            target.resize(std::size_t(n));
            entry["symlinkTarget"] = target;
        }
    }
    return entry;
}

} // namespace lizard::agent
