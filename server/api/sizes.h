#pragma once
// Sandbox sizes of the Lizard API and the runtime limits they mean.

#include "runtime/runtime.h"

#include <cstdint>
#include <optional>
#include <string>

namespace lizard::api {

inline constexpr const char* kDefaultSize = "medium";
// The longest sandbox timeout a create, fork or setTimeout accepts (the SDK's int32 milliseconds).
inline constexpr int64_t kMaxTimeoutMs = 2147483647;

struct HostResources
{
    int cpus = 0;     // CPUs this process may run on
    int memoryMb = 0; // physical memory
};
HostResources hostResources(); // measured once

// A size never asks for more than the host has: more CPUs than it has is no limit at all (a
// fork bomb in `medium` on a 2-core host took it all), so cpus is at most the host's CPUs and
// memory at most three quarters of its memory, leaving the rest to the desktop and the server.
runtime::Limits clampToHost(runtime::Limits limits, const HostResources& host);

// nano 0.5/1024, mini 1/2048, small 2/4096, medium 4/8192, large 8/16384, big 16/32768,
// clamped to the host (clampToHost); 1024 tasks each.
std::optional<runtime::Limits> limitsForSize(const std::string& size);
int pidsForSize(const std::string& size);
std::string sizeNames(); // "nano, mini, small, medium, large, big"

} // namespace lizard::api
