#include "api/volumerequest.h"

#include "api/jsonbody.h"
#include "common/timeutil.h"

#include <cmath>

namespace lizard::api {

Status validVolumeName(const std::string& name)
{
    auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    bool ok = !name.empty() && name.size() <= 64 && alnum(name.front()) && alnum(name.back());
    for (char c : name)
        ok = ok && (alnum(c) || c == '-');
    if (!ok)
        return invalidArgument("field \"name\" must be a slug: lowercase letters, digits and "
                               "dashes, starting and ending with a letter or digit, at most 64 "
                               "characters");
    return okStatus();
}

Result<int> volumeSize(const nlohmann::json& body, int fallback, nlohmann::json& extra)
{
    const auto it = body.find("sizeGb");
    if (it == body.end() || it->is_null()) {
        if (fallback > 0)
            return fallback;
        extra["code"] = "invalid_volume_size";
        return Error{ErrorKind::InvalidArgument, "INVALID_VOLUME_SIZE",
                     "field \"sizeGb\" is required (whole GB)"};
    }
    const double value = it->is_number() ? it->get<double>() : 0;
    // std::trunc, not a cast to an integer: casting a double beyond int64's range is undefined.
    const bool whole =
        it->is_number_integer() || (it->is_number_float() && std::trunc(value) == value);
    if (!it->is_number() || !whole || value < 1) {
        extra["code"] = "invalid_volume_size";
        return Error{ErrorKind::InvalidArgument, "INVALID_VOLUME_SIZE",
                     "field \"sizeGb\" must be a whole number of GB, at least 1"};
    }
    if (value > kMaxVolumeGb) {
        extra["code"] = "volume_too_large";
        return Error{ErrorKind::InvalidArgument, "VOLUME_TOO_LARGE",
                     "a volume holds at most " + std::to_string(kMaxVolumeGb) + " GB"};
    }
    return int(value);
}

nlohmann::json volumeJson(const store::VolumeRecord& v, const std::string& holder)
{
    return {{"id", v.id},
            {"projectId", v.projectId},
            {"name", v.name},
            {"sizeGb", v.sizeGb},
            {"sizeMb", v.sizeGb * 1024},
            {"region", "local"},
            {"status", holder.empty() ? "available" : "attached"},
            {"attachedTo", holder.empty() ? nlohmann::json(nullptr) : nlohmann::json(holder)},
            {"createdAt", isoUtc(v.createdAtMs)},
            {"sizeEnforced", v.sizeEnforced}};
}

} // namespace lizard::api
