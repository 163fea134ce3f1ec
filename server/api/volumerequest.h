#pragma once
// Volume requests: names (slugs), sizes in whole GB, and the JSON shape of a volume.

#include "common/result.h"
#include "store/records.h"

#include <nlohmann/json.hpp>
#include <string>

namespace lizard::api {

inline constexpr int kDefaultVolumeGb = 5;
inline constexpr int kMaxVolumeGb = 50;

// Lowercase letters, digits and dashes, starting and ending with a letter or digit, ≤ 64.
Status validVolumeName(const std::string& name);

// `sizeGb` of a body: absent → `fallback` (0: required); whole GB 1..kMaxVolumeGb.
// Errors carry the SDK's codes (invalid_volume_size, volume_too_large) in `extra`.
Result<int> volumeSize(const nlohmann::json& body, int fallback, nlohmann::json& extra);

// {id, projectId, name, sizeGb, sizeMb, region, status, attachedTo, createdAt, sizeEnforced}
nlohmann::json volumeJson(const store::VolumeRecord& volume, const std::string& holder);

} // namespace lizard::api
