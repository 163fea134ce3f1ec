// Every route of lizard-local, by resource.
#include "api/desktoproutes.h"
#include "api/routes.h"
#include "api/scheduleroutes.h"
#include "api/wakegate.h"

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
    registerPolicyRoutes(router, ctx);
    registerSnapshotRoutes(router, ctx);
    registerForkRoutes(router, ctx);
    registerExposeRoutes(router, ctx);
    registerDesktopRoutes(router, ctx);
    registerVolumeRoutes(router, ctx);
    registerLogRoutes(router, ctx);
    registerChangeRoutes(router, ctx);
    registerActivityRoutes(router, ctx);
    registerTemplateRoutes(router, ctx);
    registerTerminalRoutes(router, ctx);
    if (ctx.schedules != nullptr)
        registerScheduleRoutes(router, ctx, *ctx.schedules);
    registerMetricsRoutes(router, ctx);
    // Calls that use a sandbox restart its idle time and wake it from a policy's pause.
    router.setGate(WakeGate(ctx.sandboxes));
}

} // namespace lizard::api
