// Every route of lizard-local, by resource.
#include "api/desktoproutes.h"
#include "api/routes.h"

namespace lizard::api {

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
    registerDesktopRoutes(router, ctx);
    registerVolumeRoutes(router, ctx);
    registerLogRoutes(router, ctx);
    registerActivityRoutes(router, ctx);
    registerTemplateRoutes(router, ctx);
    registerTerminalRoutes(router, ctx);
    registerMetricsRoutes(router, ctx);
}

} // namespace lizard::api
