#pragma once
// Strict base64 (RFC 4648, standard alphabet; padding optional; whitespace ignored).

#include <optional>
#include <string>
#include <string_view>

namespace lizard {

std::optional<std::string> base64Decode(std::string_view text);

} // namespace lizard
