// fs.watch, a lizard-local extension (the cloud answers 501): POST /files/watch {path,
// recursive} → {watcherId}; GET /files/watch/events?watcherId=W → [FsEvent…] (drains);
// DELETE /files/watch?watcherId=W. The watches live in the sandbox's agent
// (agent/serve/watchhub.h), so they end with the sandbox, and a fork or a restore (a new agent)
// starts with none.
#include "api/agenterroranswers.h"
#include "api/filerequest.h"
#include "api/jsonbody.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "runtime/agentclient.h"
#include "sandboxes/sandboxmanager.h"

#include <functional>

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

// As any agent call's, but the agent's cap on watchers is a limit to retry after, not a fault.
Error watchError(const Error& agentError)
{
    Error e = apiErrorFromAgent(agentError);
    if (e.code == "TOO_MANY_WATCHERS")
        e.kind = ErrorKind::LimitReached;
    return e;
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
                   auto checked = sandboxAndBody(mgr, ex, p[0], SandboxNeed::Running);
                   if (!checked)
                       return;
                   Fields f(checked->body);
                   auto path = bodyPath(f, "path");
                   if (!path)
                       return ex->replyError(path.error());
                   auto recursive = f.optBool("recursive");
                   if (!recursive)
                       return ex->replyError(recursive.error());
                   nlohmann::json req = {
                       {"op", "watch"}, {"path", *path}, {"recursive", recursive->value_or(false)}};
                   askAgent(
                       mgr, ex, p[0], std::move(req),
                       [ex](const nlohmann::json& r) {
                           ex->replyJson(200, {{"watcherId", r.value("watcherId", std::string())}});
                       },
                       watchError);
               });
    router.add(verb::get, "/api/sandboxes/{}/files/watch/events",
               [&mgr](const ExPtr& ex, const Params& p) {
                   auto id = queryWatcherId(ex);
                   if (!id)
                       return ex->replyError(id.error());
                   askAgent(
                       mgr, ex, p[0], {{"op", "watchEvents"}, {"watcherId", *id}},
                       [ex](const nlohmann::json& r) {
                           const auto it = r.find("events");
                           ex->replyJson(200, it != r.end() && it->is_array()
                                                  ? *it
                                                  : nlohmann::json::array());
                       },
                       watchError);
               });
    router.add(verb::delete_, "/api/sandboxes/{}/files/watch",
               [&mgr](const ExPtr& ex, const Params& p) {
                   auto id = queryWatcherId(ex);
                   if (!id)
                       return ex->replyError(id.error());
                   askAgent(
                       mgr, ex, p[0], {{"op", "unwatch"}, {"watcherId", *id}},
                       [ex](const nlohmann::json&) { ex->replyEmpty(); }, watchError);
               });
}

} // namespace lizard::api
