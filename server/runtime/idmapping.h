#pragma once
// Chooses how sandbox uids map to host uids for the running server (server/runtime/README.md):
// root → 0..65535 on 1000000000..; non-root with newuidmap and a subordinate range → 0 is
// the caller, 1..65535 the range; otherwise only 0 → the caller.

#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>

namespace lizard::runtime {

struct IdMapping
{
    std::string kind;   // "root", "subid", "single"
    uid_t hostRoot = 0; // the host uid that is root in the sandbox ("R")
    gid_t hostRootGid = 0;
    uid_t subUid = 0;
    gid_t subGid = 0;
    std::string note; // why the full range is not available

    bool fullRange() const { return kind != "single"; }
    nlohmann::json toJson() const;
};

inline constexpr uid_t kRootMappingBase = 1000000000;

IdMapping chooseIdMapping();

} // namespace lizard::runtime
