#pragma once
// Templates built from recipes (sandboxes/templates/): their versions, their builds and the
// cache of the layers the builds made. A version and a layer are each a snapshot's files.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace lizard::store {

struct TemplateVersionRecord
{
    std::string name;
    int version = 0;        // 1, 2, ...; "latest" is the highest
    std::string snapshotId; // its files (a snapshot of the build's last step)
    std::string base;       // the built-in template under it: base | interpreter | desktop
    std::string recipe;     // as written
    std::map<std::string, std::string> envs; // the recipe's env at its end
    std::string workdir;
    std::string buildId;
    int64_t sizeBytes = 0;
    int64_t createdAtMs = 0;
};

struct TemplateBuildRecord
{
    std::string id; // "tbld_..."
    std::string name;
    std::string status = "building"; // building | succeeded | failed | interrupted
    std::string recipe;
    int steps = 0;       // the recipe's steps
    int cachedSteps = 0; // of them, reused from the cache
    int failedStep = -1; // 0-based; -1: none
    std::optional<int> exitCode;
    std::string error;
    int version = 0; // what it made; 0: none (failed, or nothing changed: see error)
    int64_t startedAtMs = 0;
    int64_t endedAtMs = 0;
};

// The files after a step, keyed by everything that made them (the base and every step up to it,
// with the files it copied and the env it ran with).
struct TemplateLayerRecord
{
    std::string key; // sha256 hex
    std::string snapshotId;
    std::string templateName; // the template whose build made it
    std::string step;         // "run (line 12)"
    int64_t sizeBytes = 0;
    int64_t createdAtMs = 0;
    int64_t lastUsedAtMs = 0;
};

} // namespace lizard::store
