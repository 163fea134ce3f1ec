#pragma once
// The request target as text: its path, its query parameters and percent-decoding. Pure
// functions (no session), so the fuzzers in fuzz/ can run them on their own.

#include <optional>
#include <string>
#include <string_view>

namespace lizard::http {

std::string percentDecode(std::string_view text, bool plusIsSpace);

// The target without its query.
std::string_view targetPath(std::string_view target);

// The first query parameter called `name` (names and values percent- and '+'-decoded); a
// parameter without '=' has the value "".
std::optional<std::string> queryParam(std::string_view target, std::string_view name);

} // namespace lizard::http
