#pragma once
// How a sandbox route starts: find the sandbox in the state the route needs, or answer why not;
// and the one-shot request to its agent most such routes then make.

#include "api/agenterroranswers.h"
#include "http/exchange.h"
#include "store/store.h"

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace lizard::sandboxes {
class SandboxManager;
}

namespace lizard::api {

enum class SandboxNeed {
    Running, // running or paused, within its deadline: its record, its files on the host
    Active,  // running and not paused: its agent answers
};

// 404 NOT_FOUND "sandbox <id> not found", the answer for a sandbox that is not running.
Error sandboxNotFound(const std::string& id);

// The sandbox `id` as the route needs it, or null once the error is answered: 404 NOT_FOUND when
// it is not running, 409 SANDBOX_PAUSED when it must be active and is paused.
store::SandboxPtr sandboxOrReply(const sandboxes::SandboxManager& mgr,
                                 const std::shared_ptr<http::Exchange>& ex, const std::string& id,
                                 SandboxNeed need);

// A route with a JSON body: the sandbox as sandboxOrReply finds it, then the body as an object;
// nullopt once the first error is answered (the sandbox's before the body's).
struct SandboxAndBody
{
    store::SandboxPtr sandbox;
    nlohmann::json body;
};
std::optional<SandboxAndBody> sandboxAndBody(const sandboxes::SandboxManager& mgr,
                                             const std::shared_ptr<http::Exchange>& ex,
                                             const std::string& id, SandboxNeed need);

// One JSON request to the agent of `sandbox`: an error is answered as `mapError` makes it, a
// reply goes to `onOk`.
using AgentErrorMap = std::function<Error(const Error&)>;
void askAgent(const std::shared_ptr<http::Exchange>& ex, const store::SandboxPtr& sandbox,
              nlohmann::json request, std::function<void(const nlohmann::json&)> onOk,
              AgentErrorMap mapError = apiErrorFromAgent);
// The same for the sandbox `id`, which must be active (answered as sandboxOrReply does).
void askAgent(const sandboxes::SandboxManager& mgr, const std::shared_ptr<http::Exchange>& ex,
              const std::string& id, nlohmann::json request,
              std::function<void(const nlohmann::json&)> onOk,
              AgentErrorMap mapError = apiErrorFromAgent);

} // namespace lizard::api
