#pragma once
// `lizard-agent init|template|remove|copy|usage|changes`: runs on the host as the server's user,
// creates the user namespace (maps written from outside) and does the mode's work inside it. Prints
// one JSON line on stdout: {"ok":true,"pid":N,"network":bool} or {"ok":false,"error":"..."}.

#include "agent/build/launchconfig.h"

namespace lizard::agent {

int runLauncher(const LaunchConfig& config);

// `lizard-agent seccomp`: prints the sandbox's seccomp filter in both variants as raw BPF in
// hex, {"ok":true,"plain":"...","diskWatched":"..."} (LaunchConfig::seccompProgram).
int runSeccompExport();

} // namespace lizard::agent
