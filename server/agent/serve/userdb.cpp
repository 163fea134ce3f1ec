#include "agent/serve/userdb.h"

#include <fstream>
#include <sstream>
#include <vector>

namespace lizard::agent {

std::optional<UserInfo> lookupUser(const std::string& name, bool singleUid)
{
    const std::string wanted = name.empty() ? "root" : name;
    std::ifstream passwd("/etc/passwd");
    std::string line;
    while (std::getline(passwd, line)) {
        std::vector<std::string> fields;
        std::istringstream in(line);
        std::string field;
        while (std::getline(in, field, ':'))
            fields.push_back(field);
        if (fields.size() < 6 || fields[0] != wanted)
            continue;
        try {
            UserInfo info;
            info.name = fields[0];
            info.uid = uid_t(std::stoul(fields[2]));
            info.gid = gid_t(std::stoul(fields[3]));
            info.home = fields[5].empty() ? "/" : fields[5];
            if (fields.size() > 6 && !fields[6].empty())
                info.shell = fields[6];
            if (singleUid) {
                info.uid = 0;
                info.gid = 0;
            }
            return info;
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }
    return std::nullopt;
}

} // namespace lizard::agent
