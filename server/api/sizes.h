#pragma once
// Sandbox sizes of the Lizard API and the runtime limits they mean.

#include "runtime/runtime.h"

#include <optional>
#include <string>

namespace lizard::api {

inline constexpr const char* kDefaultSize = "medium";

// nano 0.5/1024, mini 1/2048, small 2/4096, medium 4/8192, large 8/16384, big 16/32768.
std::optional<runtime::Limits> limitsForSize(const std::string& size);
std::string sizeNames(); // "nano, mini, small, medium, large, big"

} // namespace lizard::api
