#pragma once
// The lifecycle policy fields of a request (POST /api/sandboxes, PATCH .../lifecycle) and the
// policy as the API shows it: onTimeout "kill" | "pause", idlePauseMinutes 0..10080.

#include "common/result.h"
#include "sandboxes/lifecyclepolicy.h"
#include "store/records.h"

#include <nlohmann/json.hpp>

namespace lizard::api {

// `base` with the fields the body gives; 400 INVALID_LIFECYCLE naming the field otherwise.
Result<sandboxes::LifecyclePolicy> lifecyclePolicy(const nlohmann::json& body,
                                                   sandboxes::LifecyclePolicy base);

// {onTimeout, idlePauseMinutes, pausedBy, timeoutMs, endAt}: the fields getInfo adds.
nlohmann::json lifecycleJson(const store::SandboxRecord& sandbox);

} // namespace lizard::api
