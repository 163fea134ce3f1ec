#pragma once
// A string as JSON without a JSON library, for encoders on hot paths (exec output as SSE, a
// sandbox's list of changes): always valid JSON, invalid UTF-8 replaced by U+FFFD.

#include <string>
#include <string_view>

namespace lizard {

// Appends `s` as a quoted JSON string; invalid UTF-8 becomes U+FFFD.
void appendJsonString(std::string& out, std::string_view s);

} // namespace lizard
