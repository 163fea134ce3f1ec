#pragma once
// Forks one exec'd command: own session and process group, /dev/null stdin, pipes for
// stdout/stderr (or a terminal for all three), the user's credentials. Everything the child needs
// is prepared before fork(); the child only makes async-signal-safe calls.

#include "agent/serve/reaper.h"
#include "agent/serve/userdb.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace lizard::agent {

struct SpawnRequest
{
    std::vector<std::string> argv;
    std::map<std::string, std::string> env;
    std::string cwd;
    UserInfo user;
    bool noFileGrowth = false; // RLIMIT_FSIZE 0 (the disk watch found the layer full)
    // The sandbox's own code is the OOM killer's first choice (kSandboxOomScoreAdj); false
    // for lizard-local's helpers, which keep PID 1's score.
    bool oomFirst = true;
    // lizard-local vouches that argv runs the code runner it ships (python3 -c <its source>):
    // the runner zygote may serve it warm, as it serves the official SDK's verified runners.
    bool shippedRunner = false;
    int passFd = -1; // becomes fd 3 of the command (the runner zygote's socket)
    // A terminal's slave side: stdin, stdout and stderr of the command and its controlling
    // terminal (no pipes then; Spawned's stdoutFd and stderrFd stay -1).
    int ttyFd = -1;
};

// What every exec of the sandbox's own code starts with: the most a score can be, so that a
// memory bomb's processes die before PID 1 and its helpers, and before the host's processes
// when the whole host is out of memory.
inline constexpr int kSandboxOomScoreAdj = 1000;

struct Spawned
{
    pid_t pid = 0;
    int stdoutFd = -1;
    int stderrFd = -1;
    std::shared_ptr<ExitSlot> exit;
    std::string errorCode; // empty when it started
    std::string errorMessage;
};

// Whether `path` is a directory (a command's working directory must be one).
bool isDirectory(const std::string& path);

Spawned spawnCommand(const SpawnRequest& request, Reaper& reaper);

// The workload cgroup's file (runtime/cgroupmanager.h) that every spawned command writes "0"
// into before it runs; -1 (the default): commands stay in PID 1's cgroups. Set once by PID 1
// before it serves.
void setWorkloadCgroup(int fd);

// Looks `name` up in the PATH of `env` (or returns it when it contains a slash).
std::string resolveExecutable(const std::string& name,
                              const std::map<std::string, std::string>& env);

} // namespace lizard::agent
