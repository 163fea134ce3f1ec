#pragma once
// Random tokens and hashing for API keys and ids (OpenSSL).

#include <string>
#include <string_view>

namespace lizard {

// `length` characters drawn uniformly from [A-Za-z0-9] (rejection sampling, no modulo bias).
std::string randomAlnum(size_t length);
// `length` characters drawn from [0-9a-z].
std::string randomLowerAlnum(size_t length);
std::string sha256Hex(std::string_view data);

} // namespace lizard
