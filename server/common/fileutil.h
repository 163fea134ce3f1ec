#pragma once
// Small file helpers for the server's own state files (never for sandbox paths).

#include "common/result.h"

#include <string>

namespace lizard {

// Writes via a temp file + rename, with the given mode (set before any content is written).
Status writeFileAtomic(const std::string& path, const std::string& content, unsigned mode);
// True when path names an existing file or folder (access(F_OK): symlinks are followed).
bool pathExists(const std::string& path);
// Reads a whole small file; NOT_FOUND (NotFound) when missing.
Result<std::string> readSmallFile(const std::string& path, size_t maxBytes = 1 << 20);

} // namespace lizard
