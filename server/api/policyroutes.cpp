// GET and PATCH /api/sandboxes/{id}/lifecycle: a sandbox's lifecycle policies, a local
// extension (api/DECISIONS.md, "Lifecycle policies"). The same fields are accepted at create.
#include "api/lifecyclerequest.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "sandboxes/sandboxmanager.h"

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

void registerPolicyRoutes(Router& router, ApiContext& ctx)
{
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    router.add(verb::get, "/api/sandboxes/{}/lifecycle", [&mgr](const ExPtr& ex, const Params& p) {
        if (const auto sb = sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running))
            ex->replyJson(200, lifecycleJson(*sb));
    });
    router.add(
        verb::patch, "/api/sandboxes/{}/lifecycle", [&mgr](const ExPtr& ex, const Params& p) {
            auto checked = sandboxAndBody(mgr, ex, p[0], SandboxNeed::Running);
            if (!checked)
                return;
            const store::SandboxRecord& sb = *checked->sandbox;
            auto policy = lifecyclePolicy(checked->body, {sb.onTimeout, sb.idlePauseMinutes});
            if (!policy)
                return ex->replyError(policy.error());
            if (Status s = mgr.setLifecycle(p[0], *policy); !s)
                return ex->replyError(s.error());
            const auto now = mgr.running(p[0]);
            if (!now)
                return ex->replyError(sandboxNotFound(p[0]));
            ex->replyJson(200, lifecycleJson(*now));
        });
}

} // namespace lizard::api
