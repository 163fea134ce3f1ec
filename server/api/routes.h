#pragma once
// The routes of the Lizard API and of lizard-local's extensions (server/api/DECISIONS.md),
// grouped by resource. Each register* adds its routes.

#include "api/router.h"
#include "http/beast.h"
#include "http/exchange.h"

#include <string>

namespace lizard::runtime {
class Runtime;
}
namespace lizard::store {
class Store;
}
namespace lizard::proxy {
class ProxyServer;
}
namespace lizard::sandboxes {
class SandboxManager;
class Scheduler;
class TemplateBuilder;
class MetricsSampler;
} // namespace lizard::sandboxes

namespace lizard::api {

class KeyStreams;
class Revocable;
class WarmPools;

struct ApiContext
{
    store::Store& store;
    sandboxes::SandboxManager& sandboxes;
    runtime::Runtime& runtime;
    std::string serverUser;
    proxy::ProxyServer* proxy = nullptr;          // the port proxy (expose routes)
    KeyStreams* keyStreams = nullptr;             // long requests by key, ended when it is revoked
    WarmPools* pools = nullptr;                   // the templates' and snapshots' warm pools
    sandboxes::MetricsSampler* metrics = nullptr; // resource metrics (metricsroutes.cpp)
    // The sandboxes' schedules (the SDK's; scheduleroutes.h).
    sandboxes::Scheduler* schedules = nullptr;
    // Templates built from recipes (templateroutes.cpp); null: not offered.
    sandboxes::TemplateBuilder* templates = nullptr;
    // Derives the desktops' VNC passwords (desktoproutes.cpp): random, kept in the data
    // directory, never in a URL.
    std::string desktopSecret;
};

void registerAccountRoutes(Router& router, ApiContext& ctx);
void registerApiKeyRoutes(Router& router, ApiContext& ctx);
void registerProjectRoutes(Router& router, ApiContext& ctx);
void registerSandboxRoutes(Router& router, ApiContext& ctx);
void registerExecRoutes(Router& router, ApiContext& ctx);
void registerProcessRoutes(Router& router, ApiContext& ctx);
void registerFileRoutes(Router& router, ApiContext& ctx);
void registerWatchRoutes(Router& router, ApiContext& ctx);     // fs.watch (a local extension)
void registerLifecycleRoutes(Router& router, ApiContext& ctx); // pause, resume
void registerPolicyRoutes(Router& router, ApiContext& ctx);    // lifecycle policies (ours)
void registerSnapshotRoutes(Router& router, ApiContext& ctx);
void registerForkRoutes(Router& router, ApiContext& ctx);
void registerExposeRoutes(Router& router, ApiContext& ctx);
void registerVolumeRoutes(Router& router, ApiContext& ctx);
void registerLogRoutes(Router& router, ApiContext& ctx); // system logs (SSE)
void registerChangeRoutes(Router& router,
                          ApiContext& ctx); // a sandbox's changes (a local extension)
void registerActivityRoutes(Router& router, ApiContext& ctx); // a local extension
void registerTemplateRoutes(Router& router, ApiContext& ctx); // warm pools of the templates
void registerTerminalRoutes(Router& router, ApiContext& ctx); // PTY terminals (a local extension)
void registerMetricsRoutes(Router& router, ApiContext& ctx); // resource metrics (a local extension)
void registerAllRoutes(Router& router, ApiContext& ctx);

// Tracks a long request (a stream) by the key that opened it, so that revoking the key ends it
// (execroutes.cpp).
void trackByKey(ApiContext& ctx, const std::shared_ptr<http::Exchange>& ex,
                const std::shared_ptr<Revocable>& request);

// Runs `fn` on the exchange's connection executor (from a worker thread, for example).
template <class Fn> void onExchange(const std::shared_ptr<http::Exchange>& ex, Fn&& fn)
{
    http::net::post(ex->executor(), [ex, fn = std::forward<Fn>(fn)]() mutable { fn(); });
}

} // namespace lizard::api
