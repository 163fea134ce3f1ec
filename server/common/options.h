#pragma once
// Command line of lizard-local.

#include "common/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lizard {

struct Options
{
    int port = 7411; // 0: any free port
    std::string
        dataDir; // absolute; default $XDG_DATA_HOME/lizard-local or ~/.local/share/lizard-local
    int maxRunning = 32; // running sandboxes at once; more → 429
    // Sandboxes end by themselves this long after lizard-local is gone (0: never).
    int orphanGraceS = 600;
    // A WebSocket client (a terminal's attach) that sends nothing, not even a pong to the
    // server's pings, for this long is dropped.
    int websocketIdleS = 60;
    // How long one minute of a sandbox's idlePauseMinutes lasts (tests shorten it).
    int idleMinuteMs = 60000;
    int proxyPort = -1; // port proxy; -1: API port + 1 (any free port when the API port is 0)
    bool proxyPortGiven = false; // --proxy-port was given (else a busy API port + 1 is not fatal)
    bool activity = true;        // --no-activity: no activity log (the route answers 501)
    uint64_t activityMaxBytes = 64ull << 20; // per sandbox; the oldest entries go first
    // Warm pools (sandboxes/warmpool.h). -1: chosen from the host's memory at start.
    int poolMax = -1;         // idle copies of all pools together; 0: no pools
    int poolMinFreeMb = 1024; // below this much available memory the pools give copies back
    int poolBase = -1;        // default pool size of each template (the API can change it)
    int poolInterpreter = -1;
    int poolDesktop = -1;
    int scheduleMinIntervalS = 10;   // the shortest `every` of a schedule
    int64_t templateCacheMb = 20480; // template layers kept for later builds (sandboxes/templates)
    // Every running sandbox's resources are sampled this often (sandboxes/metricssampler.h).
    int metricsIntervalMs = 2000;
    bool help = false;
    bool version = false;
};

Result<Options> parseOptions(const std::vector<std::string>& args);
std::string usageText();
std::string defaultDataDir();

} // namespace lizard
