#pragma once
// A sandbox's lifecycle policies, a lizard-local extension (api/DECISIONS.md, "Lifecycle
// policies"): what its deadline does, and how long it may go unused before it is paused.

#include <string>

namespace lizard::sandboxes {

inline constexpr const char* kOnTimeoutKill = "kill";   // the deadline destroys it (the API's)
inline constexpr const char* kOnTimeoutPause = "pause"; // the deadline pauses it, files and memory
inline constexpr int kMaxIdlePauseMinutes = 7 * 24 * 60;

// Who paused a paused sandbox (SandboxRecord::pausedBy). Only a policy's pause is undone by the
// next call that needs the sandbox; the user's stays until POST /resume.
inline constexpr const char* kPausedByUser = "user";
inline constexpr const char* kPausedByIdle = "idle";
inline constexpr const char* kPausedByTimeout = "timeout";

struct LifecyclePolicy
{
    std::string onTimeout = kOnTimeoutKill;
    int idlePauseMinutes = 0; // 0: never paused for being idle
};

} // namespace lizard::sandboxes
