// POST /api/sandboxes/{id}/fork {count 1..100, timeoutMs}: the source's files are copied once
// (hook, freeze, copy, thaw: the source keeps running), then each copy starts from that copy
// like any create (so --max-running applies per copy). One answer entry per copy, in order:
// {sandbox: info} or {error, code, ...}.
#include "api/jsonbody.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "api/sizes.h"
#include "api/views.h"
#include "http/responses.h"
#include "sandboxes/sandboxmanager.h"
#include "sandboxes/snapshotservice.h"
#include "store/store.h"

#include <atomic>

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

constexpr int64_t kMaxForks = 100;

// A sandbox that holds a volume cannot be forked: the copies could not share it.
bool holdsVolume(const store::Store& st, const store::SandboxRecord& rec)
{
    for (const auto& v : st.volumes(rec.projectId)) {
        if (st.volumeHolder(v) == rec.id)
            return true;
    }
    return false;
}

sandboxes::CreateSandboxParams copyParams(const store::SandboxRecord& src, int64_t timeoutMs,
                                          const std::string& files, int diskGb)
{
    sandboxes::CreateSandboxParams p;
    p.projectId = src.projectId;
    p.templateName = src.templateName;
    p.size = src.size;
    if (auto limits = limitsForSize(src.size))
        p.limits = *limits;
    p.timeoutMs = timeoutMs;
    p.metadata = src.metadata;
    p.envs = src.envs;
    p.internetAccess = src.internetAccess;
    // Stored entries were valid when the source was created, so they parse again.
    if (auto allowed = sandboxes::parseAllowedHosts(src.allowedHosts))
        p.allowedHosts = std::move(*allowed);
    p.filesFrom = files;
    if (src.shmMb > 0)
        p.shmMb = std::min(src.shmMb, p.limits.memoryMb);
    if (diskGb > 0) // the copies get the source's disk size, so its files fit
        p.diskGb = diskGb;
    p.lifecycle = {src.onTimeout, src.idlePauseMinutes}; // a copy ends and idles like its source
    return p;
}

nlohmann::json errorEntry(const Error& e, const sandboxes::SandboxManager& mgr)
{
    nlohmann::json j{{"error", e.message}, {"code", e.code}, {"status", http::httpStatus(e.kind)}};
    if (e.kind == ErrorKind::LimitReached) {
        j["limit"] = mgr.maxRunning();
        j["running"] = mgr.runningCount();
        j["unit"] = "sandboxes";
        j["retryAfterS"] = 5;
    }
    return j;
}

} // namespace

void registerForkRoutes(Router& router, ApiContext& ctx)
{
    store::Store& st = ctx.store;
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    router.add(verb::post, "/api/sandboxes/{}/fork", [&st, &mgr](const ExPtr& ex, const Params& p) {
        const auto source = sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running);
        if (!source)
            return;
        if (Status room = mgr.checkStorage(); !room)
            return ex->replyError(room.error());
        auto body = parseJsonObject(ex->request());
        if (!body)
            return ex->replyError(body.error());
        Fields f(*body);
        auto count = f.optInt("count");
        if (!count)
            return ex->replyError(count.error());
        const int64_t n = count->value_or(1);
        if (n < 1 || n > kMaxForks)
            return ex->replyError(invalidArgument("field \"count\" must be 1..100"));
        auto timeout = f.optInt("timeoutMs");
        if (!timeout)
            return ex->replyError(timeout.error());
        int64_t timeoutMs = timeout->value_or(0);
        if (timeoutMs != 0 && (timeoutMs < 1000 || timeoutMs > kMaxTimeoutMs))
            return ex->replyError(
                Error{ErrorKind::InvalidArgument, "INVALID_TIMEOUT",
                      "field \"timeoutMs\" must be 0 (the source's) or 1000..2147483647"});
        if (timeoutMs == 0 && source->endAtMs != 0) // the source's lifetime, counted from the fork
            timeoutMs = std::max<int64_t>(1000, source->endAtMs - source->startedAtMs);
        else if (timeoutMs == 0) // paused at its deadline: the lifetime a resume would restart
            timeoutMs = source->timeoutMs;
        if (holdsVolume(st, *source))
            return ex->replyError(
                Error{ErrorKind::Conflict, "SANDBOX_HAS_VOLUME",
                      "sandbox " + source->id + " has a volume attached; it cannot be forked"});
        // Terminals are lizard-local's sessions, not the sandbox's: copies start with none.
        const int terminals = mgr.terminals().running(source->id);
        mgr.snapshots().captureForFork(
            source, ex->executor(),
            [ex, &mgr, source, n, timeoutMs, terminals](Result<std::string> files) {
                if (!files)
                    return onExchange(ex, [ex, e = files.error()] { ex->replyError(e); });
                auto results = std::make_shared<std::vector<nlohmann::json>>(size_t(n));
                auto left = std::make_shared<std::atomic<int64_t>>(n);
                const std::string name = *files;
                for (int64_t i = 0; i < n; ++i) {
                    mgr.create(copyParams(*source, timeoutMs, name, mgr.diskGb(source->id)),
                               [ex, &mgr, results, left, name, i, source,
                                terminals](Result<store::SandboxPtr> r) {
                                   if (r) {
                                       const std::string& id = r.value()->id;
                                       mgr.logs().append(source->id, "info", "lifecycle",
                                                         "forked into " + id);
                                       mgr.logs().append(id, "info", "lifecycle",
                                                         "forked from " + source->id);
                                   }
                                   (*results)[size_t(i)] =
                                       r ? nlohmann::json{{"sandbox",
                                                           sandboxJson(*r.value(),
                                                                       mgr.disk(r.value()->id))},
                                                          {"terminalsNotCopied", terminals}}
                                         : errorEntry(r.error(), mgr);
                                   if (left->fetch_sub(1) != 1)
                                       return;
                                   mgr.snapshots().dropFiles(name);
                                   nlohmann::json forks = nlohmann::json::array();
                                   for (const auto& one : *results)
                                       if (one.contains("sandbox"))
                                           forks.push_back(
                                               one["sandbox"].value("sandboxId", std::string()));
                                   mgr.recordActivity(
                                       source->id, "fork",
                                       {{"count", results->size()}, {"forks", forks}});
                                   onExchange(ex, [ex, results] {
                                       ex->replyJson(200, nlohmann::json(*results));
                                   });
                               });
                }
            });
    });
}

} // namespace lizard::api
