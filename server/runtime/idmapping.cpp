#include "runtime/idmapping.h"

#include <cstdlib>
#include <fstream>
#include <pwd.h>
#include <sstream>
#include <unistd.h>

namespace lizard::runtime {

namespace {

// First "name-or-uid:start:count" line of /etc/subuid or /etc/subgid with count ≥ 65535.
bool findRange(const char* file, const std::string& name, unsigned id, unsigned& start)
{
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream s(line);
        std::string owner, first, count;
        if (!std::getline(s, owner, ':') || !std::getline(s, first, ':') || !std::getline(s, count))
            continue;
        if (owner != name && owner != std::to_string(id))
            continue;
        try {
            if (std::stoul(count) >= 65535) {
                start = unsigned(std::stoul(first));
                return true;
            }
        } catch (const std::exception&) {
        }
    }
    return false;
}

bool executable(const char* path)
{
    return ::access(path, X_OK) == 0;
}

} // namespace

nlohmann::json IdMapping::toJson() const
{
    return {{"kind", kind},     {"uid", hostRoot},  {"gid", hostRootGid}, {"hostRoot", hostRoot},
            {"subUid", subUid}, {"subGid", subGid}, {"count", 65536}};
}

IdMapping chooseIdMapping()
{
    IdMapping m;
    uid_t uid = ::getuid();
    gid_t gid = ::getgid();
    if (uid == 0) {
        m.kind = "root";
        m.hostRoot = kRootMappingBase;
        m.hostRootGid = kRootMappingBase;
        return m;
    }
    m.hostRoot = uid;
    m.hostRootGid = gid;
    std::string name;
    if (passwd* pw = ::getpwuid(uid))
        name = pw->pw_name;
    unsigned subUid = 0, subGid = 0;
    bool tools = executable("/usr/bin/newuidmap") && executable("/usr/bin/newgidmap");
    bool ranges =
        findRange("/etc/subuid", name, uid, subUid) && findRange("/etc/subgid", name, gid, subGid);
    // LIZARD_ID_MAPPING=single forces the one-uid mapping (tests, and hosts whose newuidmap
    // misbehaves).
    const char* forced = std::getenv("LIZARD_ID_MAPPING");
    bool forceSingle = forced && std::string(forced) == "single";
    if (tools && ranges && !forceSingle) {
        m.kind = "subid";
        m.subUid = subUid;
        m.subGid = subGid;
        return m;
    }
    m.kind = "single";
    m.note =
        forceSingle ? "LIZARD_ID_MAPPING=single is set"
        : !tools
            ? "newuidmap/newgidmap are not installed (Debian/Ubuntu: apt install uidmap)"
            : "no range of 65536 ids for " + name +
                  " in /etc/subuid and /etc/subgid "
                  "(fix: sudo usermod --add-subuids 100000-165535 --add-subgids 100000-165535 " +
                  name + ")";
    return m;
}

} // namespace lizard::runtime
