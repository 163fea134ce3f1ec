#pragma once
// Path text of the file requests, as pure functions (no file system), so the fuzzers in
// fuzz/ can run them on their own.

#include <optional>
#include <string>
#include <vector>

namespace lizard::agent {

// The request's path without trailing slashes ("/" stays "/"), or nothing unless it is
// absolute and free of NUL bytes.
std::optional<std::string> requestPath(std::string path);

// The directories `mkdir -p path` creates, outermost first ("/a/b" → "/a", "/a/b").
std::vector<std::string> dirChain(const std::string& path);

// `name` in the directory `dir` ("/" + name for the root).
std::string joinPath(const std::string& dir, const std::string& name);

// The last component of `path` ("/" for the root).
std::string baseName(const std::string& path);

// The directory that holds `path`, or "" when that is the root (or `path` has no '/').
std::string parentDir(const std::string& path);

} // namespace lizard::agent
