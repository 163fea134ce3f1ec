#pragma once
// Every process of the sandbox (its pid namespace), for the app's process view: a local
// extension beside the SDK's list, which holds only what exec started.

#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>

namespace lizard::agent {

class ProcessTable;

// At most this many processes are described; `truncated` says when there were more. The
// pids limit of a sandbox is far lower, so this only bounds a reply from a broken /proc.
constexpr std::size_t kMaxTreeProcesses = 8192;

// {"processes":[{pid, ppid, user, uid, state, command, cmd, cpuMs, rssBytes, threads,
// startedAt, exec, tag?}], "sampledAt", "truncated"}. `exec` marks the commands exec started
// (the SDK's list); PID 1, this agent, is listed with `system: true`.
nlohmann::json readProcessTree(const ProcessTable& tracked);

// Signals one process of the sandbox, and its descendants when `tree`. PID 1 is refused:
// it is the sandbox itself. Returns an error code ("" on success) and sets `message`.
std::string signalSandboxProcess(pid_t pid, int sig, bool tree, std::string& message);

} // namespace lizard::agent
