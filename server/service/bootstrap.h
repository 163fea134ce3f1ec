#pragma once
// First-start state: the API key file and the default project.

#include "common/result.h"

#include <string>

namespace lizard::store {
class Store;
}

namespace lizard::service {

// Makes sure <dataDir>/api-key (0600) holds a key whose SHA-256 the store knows. A missing or
// malformed file gets a new key `liz_` + 40 random characters; older key-file keys are then
// revoked (keys made through the API stay).
// Returns the key file's absolute path.
Result<std::string> ensureApiKey(store::Store& store, const std::string& dataDir);
Status ensureDefaultProject(store::Store& store);
bool looksLikeApiKey(const std::string& key);

} // namespace lizard::service
