#pragma once
// Wall-clock helpers: unix milliseconds and ISO-8601 (UTC, millisecond precision).

#include <cstdint>
#include <string>

namespace lizard {

int64_t nowMs();
std::string isoUtc(int64_t unixMs); // "2026-11-29T09:30:00.123Z"

} // namespace lizard
