#pragma once
// What every connection handler of the agent shares.

#include "agent/lease.h"
#include "agent/process_table.h"
#include "agent/reaper.h"

#include <map>
#include <string>

namespace lizard::agent {

struct AgentContext
{
    std::map<std::string, std::string> envs; // create-time envs of the sandbox
    bool singleUid = false;
    Reaper reaper;
    ProcessTable processes;
    Lease lease;
};

} // namespace lizard::agent
