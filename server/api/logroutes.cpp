// GET /api/sandboxes/{id}/logs?tail=N[&follow=false]: the sandbox's system log as SSE
// (systemlogstream.h). A read-only key may read it (a GET).
#include "api/jsonbody.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "api/systemlogstream.h"
#include "sandboxes/sandboxmanager.h"

#include <charconv>

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

constexpr size_t kDefaultTail = 100;
constexpr size_t kMaxTail = 10000;

Result<size_t> queryTail(const ExPtr& ex)
{
    const auto v = ex->query("tail");
    if (!v || v->empty())
        return kDefaultTail;
    size_t n = 0;
    const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
    if (ec != std::errc() || end != v->data() + v->size() || n > kMaxTail)
        return invalidArgument("query parameter \"tail\" must be 0.." + std::to_string(kMaxTail));
    return n;
}

Result<bool> queryFollow(const ExPtr& ex)
{
    const auto v = ex->query("follow");
    if (!v || v->empty() || *v == "true" || *v == "1")
        return true;
    if (*v == "false" || *v == "0")
        return false;
    return invalidArgument("query parameter \"follow\" must be true or false");
}

} // namespace

void registerLogRoutes(Router& router, ApiContext& ctx)
{
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    router.add(verb::get, "/api/sandboxes/{}/logs", [&mgr, &ctx](const ExPtr& ex, const Params& p) {
        if (!sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running))
            return;
        auto tail = queryTail(ex);
        if (!tail)
            return ex->replyError(tail.error());
        auto follow = queryFollow(ex);
        if (!follow)
            return ex->replyError(follow.error());
        auto stream = std::make_shared<LogStream>(ex, mgr.logs(), p[0], *tail, *follow);
        if (!stream->start())
            return ex->replyError(sandboxNotFound(p[0])); // ended between the check and now
        trackByKey(ctx, ex, stream);
    });
}

} // namespace lizard::api
