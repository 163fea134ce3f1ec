// POST /api/sandboxes/{id}/pause and /resume.
#include "api/routes.h"
#include "sandboxes/sandboxmanager.h"

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

void registerLifecycleRoutes(Router& router, ApiContext& ctx)
{
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    auto answer = [](const ExPtr& ex) {
        return [ex](Status s) {
            onExchange(ex, [ex, s] {
                if (!s)
                    return ex->replyError(s.error());
                ex->replyEmpty();
            });
        };
    };
    router.add(verb::post, "/api/sandboxes/{}/pause",
               [&mgr, answer](const ExPtr& ex, const Params& p) { mgr.pause(p[0], answer(ex)); });
    router.add(verb::post, "/api/sandboxes/{}/resume",
               [&mgr, answer](const ExPtr& ex, const Params& p) { mgr.resume(p[0], answer(ex)); });
}

} // namespace lizard::api
