#pragma once
// The JSON of templates built from recipes (a local extension): a template with its versions,
// layers and builds, and a build.

#include "sandboxes/templates/templatebuilder.h"
#include "sandboxes/warmpool.h"

#include <nlohmann/json.hpp>

namespace lizard::api {

// {id, name, status, steps, cachedSteps, failedStep, exitCode, error, version, startedAt,
//  endedAt, durationMs, logUrl}
nlohmann::json buildJson(const store::TemplateBuildRecord& b);
// {name, kind: "recipe", base, latest, recipe, versions, lastBuild, building, poolSize,
//  readyCount, poolError, available}; `detail` adds every build kept and the layers.
nlohmann::json recipeTemplateJson(const sandboxes::TemplateBuilder& builder,
                                  const std::string& name, const sandboxes::PoolState& pool,
                                  bool detail);

} // namespace lizard::api
