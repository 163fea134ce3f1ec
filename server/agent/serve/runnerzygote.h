#pragma once
// The official SDK's runCode, served warm. The SDK runs its code runner as an exec per call,
// `python3 -c <runner source> <base64 JSON>`, and a fresh python3 spends some 300 ms of each
// call on imports and on jupyter_client's fixed waits although the kernel answers in
// milliseconds. For the runner sources verified here byte for byte (kVerifiedSdkRunners), the
// agent forks the command from a python3 that has done those imports (runnerzygote.py) instead
// of starting a new one; the child runs the very same source with the same argv, env, cwd,
// stdio, session and limits, and is reaped, signalled and timed out like any exec. An SDK Python
// run may instead be served in place by the zygote's resident runner, a process that outlives
// its runs and keeps its kernel client between them: such an exec has that process's pid, and
// its end is the exit code the resident writes on a pipe (or, when the exec's kill ended the
// resident, the resident's own exit status). Everything else, and an exec with
// LIZARD_RUNNER_FASTPATH=0 in its env, starts as before.

#include "agent/serve/execspawn.h"

#include <mutex>
#include <string>
#include <vector>

namespace lizard::agent {

class RunnerZygote
{
public:
    // Whether argv is ["python3", "-c", <a verified SDK runner source>, <argument>].
    static bool recognizes(const std::vector<std::string>& argv);

    // Spawns the request: from the zygote when it is ready and the request is a verified runner
    // run as root, else as spawnCommand does (a first verified run also starts the zygote, so
    // that the next one is warm). `warm` says which way it went.
    Spawned spawn(const SpawnRequest& request, Reaper& reaper, bool& warm);
    // Starts the zygote now (lizard-local's warm copies of the interpreter template) and waits
    // until it is ready or `timeoutMs` passed; then has it compile `shippedRunner` (the runner
    // lizard-local ships, when not empty), which its children then need not. Empty, or why it
    // is not ready.
    std::string startAndWait(const SpawnRequest& base, Reaper& reaper, int timeoutMs,
                             const std::string& shippedRunner = {});

    ~RunnerZygote();

private:
    enum class State { Off, Starting, Ready };
    // Under m_mutex.
    void startLocked(const SpawnRequest& base, Reaper& reaper);
    bool pollReadyLocked(int timeoutMs);
    void stopLocked();
    bool spawnWarmLocked(const SpawnRequest& request, Reaper& reaper, Spawned& out);

    std::mutex m_mutex;
    State m_state = State::Off;
    int m_socket = -1;
    pid_t m_pid = 0;
    std::shared_ptr<ExitSlot> m_exit;
};

} // namespace lizard::agent
