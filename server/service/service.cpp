#include "service/service.h"

#include "api/keystreams.h"
#include "api/routes.h"
#include "api/sizes.h"
#include "api/warmpools.h"
#include "common/crypto.h"
#include "common/fileutil.h"
#include "common/instancelock.h"
#include "common/log.h"
#include "http/httpserver.h"
#include "http/websocketconnection.h"
#include "proxy/proxyserver.h"
#include "runtime/runtime.h"
#include "sandboxes/activitylog.h"
#include "sandboxes/logwatch.h"
#include "sandboxes/metricssampler.h"
#include "sandboxes/sandboxmanager.h"
#include "sandboxes/schedules/scheduler.h"
#include "sandboxes/templates/templatebuilder.h"
#include "service/bootstrap.h"
#include "store/store.h"

#include <csignal>
#include <cstdio>
#include <future>
#include <pwd.h>
#include <thread>
#include <unistd.h>

namespace lizard::service {

namespace {

// The warm pools' defaults, from the options and, where they say nothing, the host's memory: a
// warm copy of base or interpreter costs a few MiB (server/api/DECISIONS.md, "Warm pools").
api::PoolDefaults poolDefaults(const Options& options)
{
    const int memoryMb = api::hostResources().memoryMb;
    api::PoolDefaults d;
    d.maxCopies = options.poolMax >= 0 ? options.poolMax
                  : memoryMb >= 8192   ? 16
                  : memoryMb >= 3072   ? 4
                                       : 0;
    const bool roomy = d.maxCopies >= 4;
    d.templates["base"] = options.poolBase >= 0 ? options.poolBase : roomy ? 2 : 0;
    d.templates["interpreter"] = options.poolInterpreter >= 0 ? options.poolInterpreter
                                 : roomy                      ? 1
                                                              : 0;
    d.templates["desktop"] = std::max(0, options.poolDesktop);
    return d;
}

// A secret of this server's, made once (0600) and kept in the data directory.
Result<std::string> loadOrCreateSecret(const std::string& path)
{
    if (auto existing = readSmallFile(path, 4096); existing && existing->size() >= 32)
        return *existing;
    const std::string secret = randomAlnum(43);
    if (Status s = writeFileAtomic(path, secret, 0600); !s)
        return s.error();
    return secret;
}

int fail(const std::string& message, int code = 1)
{
    std::fprintf(stderr, "lizard-local: %s\n", message.c_str());
    return code;
}

std::string runningUrl(const std::string& dataDir)
{
    auto info = readSmallFile(dataDir + "/server.json");
    if (!info)
        return {};
    const auto j = nlohmann::json::parse(*info, nullptr, false);
    return j.is_object() && j.contains("url") && j["url"].is_string() ? j["url"].get<std::string>()
                                                                      : std::string();
}

std::string userName()
{
    if (const passwd* pw = getpwuid(geteuid()); pw != nullptr && pw->pw_name != nullptr)
        return pw->pw_name;
    return "uid" + std::to_string(geteuid());
}

void logCapabilities(const runtime::Capabilities& c)
{
    auto yesNo = [](bool b) { return b ? std::string("yes") : std::string("no"); };
    log::info("runtime: sandboxes " + yesNo(c.sandboxes) +
              (c.sandboxes ? "" : " (" + c.sandboxesError + ")"));
    log::info("runtime: cgroup mode " + c.cgroupMode + ", limits " + yesNo(c.limits) +
              (c.limits ? "" : " (" + c.limitsNote + ")"));
    log::info("runtime: full uid range " + yesNo(c.fullUidRange) + ", network " + yesNo(c.network) +
              (c.network ? "" : " (" + c.networkNote + ")"));
    log::info("runtime: pause by " + (c.freezer == "signals"
                                          ? std::string("SIGSTOP of the process tree")
                                          : "the cgroup freezer (" + c.freezer + ")"));
    // Which mechanism bounds the sandboxes' disks, and why not a stronger one.
    if (c.diskBound == "image")
        log::info("runtime: sandbox disk quota yes (an ext4 image per sandbox)");
    else if (c.diskBound == "quota")
        log::info("runtime: sandbox disk quota yes (a FUSE quota file system per sandbox; no "
                  "image: " +
                  c.diskQuotaNote + ")");
    else
        log::info("runtime: sandbox disk quota no (" + c.diskQuotaNote +
                  "): disks are watched, not bounded");
    log::info("runtime: interpreter template " + yesNo(c.interpreterTemplate) +
              (c.interpreterTemplate ? "" : " (missing: " + c.interpreterMissing + ")"));
}

} // namespace

int runService(const Options& options)
{
    std::signal(SIGPIPE, SIG_IGN);
    const std::string& dir = options.dataDir;
    if (Status s = prepareDataDir(dir); !s)
        return fail(s.error().message);
    InstanceLock lock;
    if (Status s = lock.acquire(dir + "/lock"); !s) {
        if (s.error().kind != ErrorKind::Conflict)
            return fail(s.error().message);
        const std::string url = runningUrl(dir);
        return fail("another lizard-local is already running for " + dir +
                        (url.empty() ? "" : " at " + url),
                    3);
    }
    auto store = store::Store::open(dir + "/lizard.db");
    if (!store)
        return fail(store.error().message);
    auto keyFile = ensureApiKey(**store, dir);
    if (!keyFile)
        return fail(keyFile.error().message);
    if (Status s = ensureDefaultProject(**store); !s)
        return fail(s.error().message);
    auto rt = runtime::Runtime::create(dir, true);
    if (!rt)
        return fail("sandbox runtime: " + rt.error().message);
    logCapabilities((*rt)->capabilities());
    if (Status s = (*rt)->keeperStatus(); !s)
        log::warn("runtime: no keeper for a killed server's leftovers (" + s.error().message +
                  "): a sandbox that ends after this server was killed keeps its mounts and "
                  "cgroups until lizard-local starts again on " +
                  dir);

    http::net::io_context ioc{2};
    http::net::thread_pool workers{4};
    sandboxes::SandboxManager manager(**store, **rt, ioc, workers, options.maxRunning);
    runtime::VolumeStorage volumes(dir);
    log::info(volumes.enforcesSize()
                  ? std::string("volumes: ext4 images, sizes enforced")
                  : "volumes: directories, sizes not enforced (" + volumes.note() + ")");
    manager.setVolumeStorage(&volumes);
    manager.setDataDir(dir);
    std::unique_ptr<sandboxes::ActivityLog> activity;
    if (options.activity)
        activity =
            std::make_unique<sandboxes::ActivityLog>(dir + "/sandboxes", options.activityMaxBytes);
    manager.setActivity(activity.get());
    log::info(activity ? "activity log: on, " + std::to_string(options.activityMaxBytes / 1024) +
                             " KiB per sandbox"
                       : std::string("activity log: off (--no-activity)"));
    manager.reconcileAtStartup();
    manager.setOrphanGrace(int64_t(options.orphanGraceS) * 1000);
    manager.startHealthChecks();
    manager.idle().setMinuteMs(options.idleMinuteMs);
    manager.idle().start();
    if (options.idleMinuteMs != 60000)
        log::info("idle pauses: one minute of idlePauseMinutes lasts " +
                  std::to_string(options.idleMinuteMs) + " ms (--idle-minute-ms)");
    const api::PoolDefaults pooled = poolDefaults(options);
    sandboxes::PoolSettings poolSettings;
    poolSettings.maxCopies = pooled.maxCopies;
    poolSettings.minFreeMb = options.poolMinFreeMb;
    manager.startPools(poolSettings);
    api::WarmPools warmPools(**store, manager, pooled);
    warmPools.configureAll();
    log::info(pooled.maxCopies == 0
                  ? std::string("warm pools: off (--pool-max 0)")
                  : "warm pools: at most " + std::to_string(pooled.maxCopies) +
                        " copies, given back below " + std::to_string(options.poolMinFreeMb) +
                        " MiB of available memory; template defaults base " +
                        std::to_string(pooled.templates.at("base")) + ", interpreter " +
                        std::to_string(pooled.templates.at("interpreter")) + ", desktop " +
                        std::to_string(pooled.templates.at("desktop")));
    sandboxes::LogWatch logWatch(**store, manager, ioc, workers, dir);
    logWatch.start();
    sandboxes::ScheduleLimits scheduleLimits;
    scheduleLimits.minIntervalSeconds = options.scheduleMinIntervalS;
    sandboxes::Scheduler scheduler(**store, manager, ioc, scheduleLimits);
    scheduler.start();
    // Templates built from recipes: their versions keep warm pools like any snapshot's.
    sandboxes::TemplateLimits templateLimits;
    templateLimits.buildLimits = *api::limitsForSize(templateLimits.buildSize);
    templateLimits.cacheBytes = options.templateCacheMb << 20;
    sandboxes::TemplateBuilder templates(**store, manager, ioc, dir, templateLimits);
    templates.setPoolHooks(
        [&warmPools](const store::SnapshotRecord& s) { warmPools.configureSnapshot(s); },
        [&warmPools](const std::string& id) { warmPools.removeSnapshot(id); });
    templates.start();
    // Resource metrics: lifecycle lines of the system logs become marks on the charts.
    sandboxes::MetricsSampler metrics(**store, **rt, dir, options.metricsIntervalMs);
    manager.logs().setTap([&metrics](const std::string& id, const logs::LogLine& line) {
        metrics.onLogLine(id, line);
    });
    // However this function ends, the log stops calling the sampler before the sampler goes.
    struct TapGuard
    {
        logs::SystemLog& log;
        ~TapGuard() { log.setTap({}); }
    } tapGuard{manager.logs()};
    metrics.start();
    log::info("metrics: every sandbox sampled every " + std::to_string(options.metricsIntervalMs) +
              " ms, kept 24 h");

    proxy::ProxyServer portProxy(ioc, **store);
    // Traffic to exposed ports is a use of the sandbox and wakes one its policy paused.
    sandboxes::IdleWatch& idle = manager.idle();
    portProxy.setUseHooks({[&idle](const std::string& id) { return idle.touch(id); },
                           [&idle](const std::string& id) { return idle.hold(id); },
                           [&idle](const std::string& id, const std::string& trigger,
                                   std::function<void(bool)> then) {
                               idle.wake(id, trigger,
                                         [then = std::move(then)](Status s) { then(bool(s)); });
                           }});
    Status proxyOpen = portProxy.open(static_cast<unsigned short>(options.proxyPort));
    if (!proxyOpen && !options.proxyPortGiven && options.proxyPort != 0) {
        // API port + 1 is only our habit: another program (or an outgoing connection, for an
        // API port in the ephemeral range) may hold it. Any free port serves; exposures say which.
        log::warn(proxyOpen.error().message + "; the port proxy uses a free port instead");
        proxyOpen = portProxy.open(0);
    }
    if (!proxyOpen)
        return fail(proxyOpen.error().message);

    api::Router router(**store);
    api::ApiContext ctx{**store, manager, **rt, userName()};
    ctx.proxy = &portProxy;
    api::KeyStreams keyStreams;
    ctx.keyStreams = &keyStreams;
    ctx.pools = &warmPools;
    ctx.schedules = &scheduler;
    ctx.templates = &templates;
    ctx.metrics = &metrics;
    auto desktopSecret = loadOrCreateSecret(dir + "/desktop-secret");
    if (!desktopSecret)
        return fail(desktopSecret.error().message);
    ctx.desktopSecret = *desktopSecret;
    api::registerAllRoutes(router, ctx);
    http::WebSocketConnection::setIdleTimeout(std::chrono::seconds(options.websocketIdleS));
    http::HttpServer server(ioc, router);
    if (Status s = server.listen(static_cast<unsigned short>(options.port)); !s)
        return fail(s.error().message);
    server.start();
    portProxy.start();

    std::promise<int> stopSignal;
    http::net::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&stopSignal](boost::system::error_code ec, int sig) {
        stopSignal.set_value(ec ? 0 : sig);
    });
    auto guard = http::net::make_work_guard(ioc);
    std::vector<std::thread> ioThreads;
    for (int i = 0; i < 2; ++i)
        ioThreads.emplace_back([&ioc] { ioc.run(); });

    const std::string url = "http://127.0.0.1:" + std::to_string(server.port());
    const nlohmann::json info = {
        {"url", url},        {"port", server.port()}, {"proxyPort", portProxy.port()},
        {"pid", ::getpid()}, {"keyFile", *keyFile},   {"version", LIZARD_VERSION}};
    if (Status s = writeFileAtomic(dir + "/server.json", info.dump(2) + "\n", 0600); !s)
        log::warn(s.error().message);
    std::printf("lizard-local %s listening on %s\n", LIZARD_VERSION, url.c_str());
    std::printf("key file: %s\n", keyFile->c_str());
    std::fflush(stdout);

    const int sig = stopSignal.get_future().get();
    log::info("signal " + std::to_string(sig) +
              ": stopping (sandboxes keep running and are adopted next start)");
    ::unlink((dir + "/server.json").c_str());
    portProxy.stop();
    server.stop(std::chrono::seconds(10));
    scheduler.shutdown();
    templates.shutdown();
    manager.shutdown();
    logWatch.stop();
    metrics.stop();
    workers.join();
    guard.reset();
    ioc.stop();
    for (auto& t : ioThreads)
        t.join();
    log::info("stopped");
    return 0;
}

} // namespace lizard::service
