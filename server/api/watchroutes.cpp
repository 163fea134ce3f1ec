// fs.watch, a lizard-local extension (the cloud answers 501): POST /files/watch {path,
// recursive} → {watcherId}; GET /files/watch/events?watcherId=W → [FsEvent…] (drains);
// DELETE /files/watch?watcherId=W. The watches live in the sandbox's agent
// (agent/serve/watchhub.h), so they end with the sandbox, and a fork or a restore (a new agent)
// starts with none.
#include "api/agenterroranswers.h"
#include "api/filerequest.h"
#include "api/jsonbody.h"
#include "api/routes.h"
#include "runtime/agentclient.h"
#include "sandboxes/sandboxmanager.h"

#include <functional>

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

Error watchError(const Error& agentError)
{
    Error e = apiErrorFromAgent(agentError);
    if (e.code == "TOO_MANY_WATCHERS")
        e.kind = ErrorKind::LimitReached;
    return e;
}

// One request to the sandbox's agent (404 for an unknown sandbox, 409 SANDBOX_PAUSED while
// paused, as every file call); its reply goes to `onOk`.
void askAgent(sandboxes::SandboxManager& mgr, const ExPtr& ex, const std::string& id,
              nlohmann::json req, std::function<void(const nlohmann::json&)> onOk)
{
    const auto sb = mgr.active(id);
    if (!sb)
        return ex->replyError(sb.error());
    auto agent =
        std::make_shared<runtime::AgentClient>(ex->executor(), sb.value()->handle.socketPath);
    agent->request(std::move(req), [ex, agent, onOk = std::move(onOk)](Result<nlohmann::json> r) {
        if (!r)
            return ex->replyError(watchError(r.error()));
        onOk(*r);
    });
}

Result<std::string> queryWatcherId(const ExPtr& ex)
{
    auto v = ex->query("watcherId");
    if (!v || v->empty())
        return invalidArgument("query parameter \"watcherId\" is required");
    return *v;
}

} // namespace

void registerWatchRoutes(Router& router, ApiContext& ctx)
{
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    router.add(verb::post, "/api/sandboxes/{}/files/watch",
               [&mgr](const ExPtr& ex, const Params& p) {
                   if (!mgr.running(p[0]))
                       return ex->replyError(Error{ErrorKind::NotFound, "NOT_FOUND",
                                                   "sandbox " + p[0] + " not found"});
                   auto body = parseJsonObject(ex->request());
                   if (!body)
                       return ex->replyError(body.error());
                   Fields f(*body);
                   auto path = f.requiredString("path");
                   if (!path)
                       return ex->replyError(path.error());
                   if (Status s = checkPath(*path, "path"); !s)
                       return ex->replyError(s.error());
                   auto recursive = f.optBool("recursive");
                   if (!recursive)
                       return ex->replyError(recursive.error());
                   nlohmann::json req = {
                       {"op", "watch"}, {"path", *path}, {"recursive", recursive->value_or(false)}};
                   askAgent(mgr, ex, p[0], std::move(req), [ex](const nlohmann::json& r) {
                       ex->replyJson(200, {{"watcherId", r.value("watcherId", std::string())}});
                   });
               });
    router.add(verb::get, "/api/sandboxes/{}/files/watch/events",
               [&mgr](const ExPtr& ex, const Params& p) {
                   auto id = queryWatcherId(ex);
                   if (!id)
                       return ex->replyError(id.error());
                   askAgent(mgr, ex, p[0], {{"op", "watchEvents"}, {"watcherId", *id}},
                            [ex](const nlohmann::json& r) {
                                const auto it = r.find("events");
                                ex->replyJson(200, it != r.end() && it->is_array()
                                                       ? *it
                                                       : nlohmann::json::array());
                            });
               });
    router.add(verb::delete_, "/api/sandboxes/{}/files/watch",
               [&mgr](const ExPtr& ex, const Params& p) {
                   auto id = queryWatcherId(ex);
                   if (!id)
                       return ex->replyError(id.error());
                   askAgent(mgr, ex, p[0], {{"op", "unwatch"}, {"watcherId", *id}},
                            [ex](const nlohmann::json&) { ex->replyEmpty(); });
               });
}

} // namespace lizard::api
