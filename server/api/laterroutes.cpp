// Calls of lizard-api.md that lizard-local does not implement (sandbox logs): an honest 501
// that names what is missing, rather than a 404 that would read as a wrong path.
#include "api/routes.h"

namespace lizard::api {

using http::bhttp::verb;

void registerLaterRoutes(Router& router)
{
    struct Later
    {
        verb method;
        const char* pattern;
        const char* what;
    };
    static const Later later[] = {
        {verb::get, "/api/sandboxes/{}/logs", "sandbox logs"},
    };
    for (const Later& l : later) {
        const std::string what = l.what;
        router.add(l.method, l.pattern,
                   [what](const std::shared_ptr<http::Exchange>& ex, const Params&) {
                       ex->replyError(Error{501, "NOT_IMPLEMENTED",
                                            what + " is not implemented by lizard-local yet"});
                   });
    }
}

void registerAllRoutes(Router& router, ApiContext& ctx)
{
    registerAccountRoutes(router, ctx);
    registerApiKeyRoutes(router, ctx);
    registerProjectRoutes(router, ctx);
    registerSandboxRoutes(router, ctx);
    registerExecRoutes(router, ctx);
    registerProcessRoutes(router, ctx);
    registerFileRoutes(router, ctx);
    registerWatchRoutes(router, ctx);
    registerLifecycleRoutes(router, ctx);
    registerSnapshotRoutes(router, ctx);
    registerForkRoutes(router, ctx);
    registerExposeRoutes(router, ctx);
    registerVolumeRoutes(router, ctx);
    registerLaterRoutes(router);
}

} // namespace lizard::api
