#pragma once
// Pre-started kernels: a warm copy of the interpreter template gets the Jupyter kernel of its
// default Python context started, and warmed with numpy, pandas and matplotlib, before anyone
// claims it (the code runner's `prestart`, resources/runner/PROTOCOL.md). The first runCode of
// the sandbox, by the app or by the official SDK's own runner, finds it running and answers in
// milliseconds instead of seconds. The user's namespace is a fresh kernel's; the caller's envs,
// only known at the claim, are written to kClaimEnvsFile then, and the kernel takes them in just
// before its first execution. The agent's runner zygote (agent/serve/runnerzygote.h) is started
// too, so that the SDK's runner itself starts warm.

#include "common/result.h"

#include <string>

namespace lizard::sandboxes {

inline constexpr const char* kClaimEnvsFile = "/tmp/.lizard-code/default-python/claim-envs.json";
inline constexpr int kPrestartTimeoutMs = 120000;

// Runs the prestart in the sandbox whose agent listens at `socketPath` and waits for it (at most
// `timeoutMs`), then starts the agent's runner zygote (a failure there is logged, not returned:
// the kernel runs either way). Blocking: for the warm pool's own thread.
Status prestartKernel(const std::string& socketPath, int timeoutMs = kPrestartTimeoutMs);

} // namespace lizard::sandboxes
