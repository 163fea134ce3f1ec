#pragma once
// Minimal thread-safe logging to stderr (stdout is reserved for the two startup lines).

#include <string_view>

namespace lizard::log {

void info(std::string_view message);
void warn(std::string_view message);
void error(std::string_view message);

} // namespace lizard::log
