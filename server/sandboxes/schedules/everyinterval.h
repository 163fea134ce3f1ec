#pragma once
// The `every` of a schedule: a number of seconds, or a text of whole amounts with units,
// "90s", "5m", "1h30m", "2d" (s, m, h, d; a bare number is seconds).

#include "common/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace lizard::sandboxes {

inline constexpr int64_t kMaxEverySeconds = int64_t(366) * 86400;

// Seconds, 1..kMaxEverySeconds; INVALID_SCHEDULE (InvalidArgument) with what is wrong.
// (The server's minimum interval is checked by the scheduler.)
Result<int64_t> parseEvery(std::string_view text);
// The shortest text parseEvery reads as `seconds`: 300 → "5m", 5400 → "1h30m".
std::string formatEvery(int64_t seconds);

} // namespace lizard::sandboxes
