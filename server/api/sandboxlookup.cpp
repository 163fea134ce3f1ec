#include "api/sandboxlookup.h"

#include "api/jsonbody.h"
#include "runtime/agentclient.h"
#include "sandboxes/sandboxmanager.h"

namespace lizard::api {

Error sandboxNotFound(const std::string& id)
{
    return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " not found"};
}

store::SandboxPtr sandboxOrReply(const sandboxes::SandboxManager& mgr,
                                 const std::shared_ptr<http::Exchange>& ex, const std::string& id,
                                 SandboxNeed need)
{
    if (need == SandboxNeed::Running) {
        auto sb = mgr.running(id);
        if (!sb)
            ex->replyError(sandboxNotFound(id));
        return sb;
    }
    auto sb = mgr.active(id);
    if (!sb) {
        ex->replyError(sb.error());
        return nullptr;
    }
    return *sb;
}

std::optional<SandboxAndBody> sandboxAndBody(const sandboxes::SandboxManager& mgr,
                                             const std::shared_ptr<http::Exchange>& ex,
                                             const std::string& id, SandboxNeed need)
{
    auto sb = sandboxOrReply(mgr, ex, id, need);
    if (!sb)
        return std::nullopt;
    auto body = parseJsonObject(ex->request());
    if (!body) {
        ex->replyError(body.error());
        return std::nullopt;
    }
    return SandboxAndBody{std::move(sb), std::move(*body)};
}

void askAgent(const std::shared_ptr<http::Exchange>& ex, const store::SandboxPtr& sandbox,
              nlohmann::json request, std::function<void(const nlohmann::json&)> onOk,
              AgentErrorMap mapError)
{
    auto agent = std::make_shared<runtime::AgentClient>(ex->executor(), sandbox->handle.socketPath);
    agent->request(std::move(request), [ex, agent, onOk = std::move(onOk),
                                        mapError = std::move(mapError)](Result<nlohmann::json> r) {
        if (!r)
            return ex->replyError(mapError(r.error()));
        onOk(*r);
    });
}

void askAgent(const sandboxes::SandboxManager& mgr, const std::shared_ptr<http::Exchange>& ex,
              const std::string& id, nlohmann::json request,
              std::function<void(const nlohmann::json&)> onOk, AgentErrorMap mapError)
{
    if (const auto sb = sandboxOrReply(mgr, ex, id, SandboxNeed::Active))
        askAgent(ex, sb, std::move(request), std::move(onOk), std::move(mapError));
}

} // namespace lizard::api
