// Exposed ports: POST/DELETE /api/sandboxes/{id}/expose/{port}, served by the port proxy.
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "proxy/proxyserver.h"
#include "runtime/runtime.h"
#include "sandboxes/sandboxmanager.h"
#include "store/store.h"

#include <charconv>

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

Result<int> portParam(const std::string& text)
{
    int port = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), port);
    if (ec != std::errc() || end != text.data() + text.size() || port < 1 || port > 65535)
        return Error{ErrorKind::InvalidArgument, "INVALID_PORT",
                     "the port must be a number from 1 to 65535, not \"" + text + "\""};
    return port;
}

// The sandbox must exist and be alive (a paused sandbox may be exposed; the proxy answers
// 409 until it is resumed).
Status liveSandbox(const store::Store& st, const std::string& id, store::SandboxPtr& out)
{
    out = st.sandbox(id);
    if (!out || !(out->status == "running" || out->status == "paused" || out->status == "pausing" ||
                  out->status == "resuming"))
        return sandboxNotFound(id);
    return okStatus();
}

// The live sandbox and the port of /api/sandboxes/{id}/expose/{port}, or nullopt once the
// error is answered.
struct ExposeTarget
{
    store::SandboxPtr sandbox;
    int port;
};
std::optional<ExposeTarget> exposeTarget(const store::Store& st, const ExPtr& ex, const Params& p)
{
    store::SandboxPtr sandbox;
    if (Status s = liveSandbox(st, p[0], sandbox); !s) {
        ex->replyError(s.error());
        return std::nullopt;
    }
    auto port = portParam(p[1]);
    if (!port) {
        ex->replyError(port.error());
        return std::nullopt;
    }
    return ExposeTarget{std::move(sandbox), *port};
}

} // namespace

void registerExposeRoutes(Router& router, ApiContext& ctx)
{
    router.add(verb::post, "/api/sandboxes/{}/expose/{}", [&ctx](const ExPtr& ex, const Params& p) {
        const auto target = exposeTarget(ctx.store, ex, p);
        if (!target)
            return;
        const auto& [sandbox, port] = *target;
        // The cloud refuses ports for sandboxes created with internetAccess:false. The record
        // says what the runtime gave; on a host that can give network, false means it was
        // asked for. On a host without network every sandbox is offline through no choice of
        // its creator, and the proxy needs no sandbox network (the agent connects inside).
        if (!sandbox->internetAccess && ctx.runtime.capabilities().network)
            return ex->replyError(
                Error{ErrorKind::Forbidden, "INTERNET_ACCESS_DISABLED",
                      "sandbox " + p[0] +
                          " was created with internetAccess: false, so it cannot expose ports"});
        if (ctx.proxy == nullptr)
            return ex->replyError(Error{ErrorKind::Unavailable, "PROXY_UNAVAILABLE",
                                        "the port proxy is not running"});
        auto exposed = ctx.proxy->expose(p[0], port);
        if (!exposed)
            return ex->replyError(exposed.error());
        // The access token stays out of the log: whoever reads it could open the port.
        ctx.sandboxes.recordActivity(p[0], "expose", {{"port", exposed->port}});
        ex->replyJson(200, {{"hostname", ctx.proxy->hostname(*exposed)},
                            {"url", ctx.proxy->url(*exposed)},
                            {"port", exposed->port},
                            {"accessToken", exposed->token}});
    });
    router.add(verb::delete_, "/api/sandboxes/{}/expose/{}",
               [&ctx](const ExPtr& ex, const Params& p) {
                   const auto target = exposeTarget(ctx.store, ex, p);
                   if (!target)
                       return;
                   const int port = target->port;
                   if (ctx.proxy == nullptr)
                       return ex->replyError(Error{ErrorKind::Unavailable, "PROXY_UNAVAILABLE",
                                                   "the port proxy is not running"});
                   if (Status s = ctx.proxy->unexpose(p[0], port); !s)
                       return ex->replyError(s.error());
                   ctx.sandboxes.recordActivity(p[0], "unexpose", {{"port", port}});
                   ex->replyEmpty();
               });
}

} // namespace lizard::api
