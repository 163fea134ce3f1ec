#pragma once
// What every connection handler of the agent shares.

#include "agent/serve/lease.h"
#include "agent/serve/processtable.h"
#include "agent/serve/reaper.h"
#include "agent/serve/watchhub.h"

#include <atomic>
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
    // Set by lizard-local's disk watch while the sandbox's layer is over its size: what exec
    // starts gets RLIMIT_FSIZE 0 from its first instruction (runtime/diskwatch.h).
    std::atomic<bool> diskFull{false};
    WatchHub watches; // fs.watch
};

} // namespace lizard::agent
