#pragma once
// What one sandbox changed relative to another file system of the same template (another
// sandbox, or a snapshot): both are listed against the template, and the two lists compared
// path by path. A path only one list has differs where that list says; a path both have is the
// same when its type, size and mode (and, for what is not a directory, its modification time)
// are: copies keep modification times, so a file a fork did not touch matches its source's.

#include <nlohmann/json.hpp>

namespace lizard::api {

// `mine` and `theirs`: the change arrays of GET .../changes. The answer: changes of `mine`
// relative to `theirs` ({"path", "kind", "type", "size", "mode", "was"?}), by path.
nlohmann::json compareChanges(const nlohmann::json& mine, const nlohmann::json& theirs);

} // namespace lizard::api
