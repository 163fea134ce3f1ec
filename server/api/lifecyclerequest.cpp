#include "api/lifecyclerequest.h"

#include "api/jsonbody.h"
#include "common/timeutil.h"

namespace lizard::api {

namespace {

Error invalidLifecycle(const std::string& message)
{
    return Error{ErrorKind::InvalidArgument, "INVALID_LIFECYCLE", message};
}

} // namespace

Result<sandboxes::LifecyclePolicy> lifecyclePolicy(const nlohmann::json& body,
                                                   sandboxes::LifecyclePolicy base)
{
    Fields f(body);
    auto onTimeout = f.optString("onTimeout");
    if (!onTimeout)
        return invalidLifecycle("field \"onTimeout\" must be \"kill\" or \"pause\"");
    if (*onTimeout) {
        if (**onTimeout != sandboxes::kOnTimeoutKill && **onTimeout != sandboxes::kOnTimeoutPause)
            return invalidLifecycle("field \"onTimeout\" must be \"kill\" or \"pause\", not \"" +
                                    **onTimeout + "\"");
        base.onTimeout = **onTimeout;
    }
    auto idle = f.optInt("idlePauseMinutes");
    const std::string range = "field \"idlePauseMinutes\" must be a whole number of minutes from "
                              "0 (never) to " +
                              std::to_string(sandboxes::kMaxIdlePauseMinutes);
    if (!idle)
        return invalidLifecycle(range);
    if (*idle) {
        if (**idle < 0 || **idle > sandboxes::kMaxIdlePauseMinutes)
            return invalidLifecycle(range);
        base.idlePauseMinutes = int(**idle);
    }
    return base;
}

nlohmann::json lifecycleJson(const store::SandboxRecord& s)
{
    return {
        {"onTimeout", s.onTimeout},
        {"idlePauseMinutes", s.idlePauseMinutes},
        {"pausedBy",
         s.paused() && !s.pausedBy.empty() ? nlohmann::json(s.pausedBy) : nlohmann::json(nullptr)},
        {"timeoutMs", s.timeoutMs},
        {"endAt", s.endAtMs != 0 ? nlohmann::json(isoUtc(s.endAtMs)) : nlohmann::json(nullptr)}};
}

} // namespace lizard::api
