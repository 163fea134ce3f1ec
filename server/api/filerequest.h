#pragma once
// Checks of the paths and user names that the file routes accept. The agent resolves every
// path inside the sandbox; here they only have to be absolute, bounded and free of NUL bytes.

#include "common/result.h"

#include <optional>
#include <string>

namespace lizard::api {

// 400 INVALID_ARGUMENT naming `field` unless `path` is absolute, ≤ 4096 bytes and has no NUL.
Status checkPath(const std::string& path, const std::string& field);

class Fields;

// The body field `name`, required, as a path checkPath accepts.
Result<std::string> bodyPath(const Fields& fields, const std::string& name);

// The user a file request runs as: root when absent; 1..64 bytes without '/', ':', '\n', NUL.
Result<std::string> fileUser(std::optional<std::string> user);

} // namespace lizard::api
