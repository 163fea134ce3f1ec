// Snapshots: take (POST /api/sandboxes/{id}/snapshot), list per project and all, get,
// PATCH (name, poolSize; scope accepted and ignored), pause and resume of the warm pool, delete.
#include "api/jsonbody.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "api/views.h"
#include "api/warmpools.h"
#include "common/log.h"
#include "sandboxes/sandboxmanager.h"
#include "sandboxes/snapshotservice.h"
#include "sandboxes/templates/templatebuilder.h"
#include "store/store.h"

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

Result<std::optional<std::string>> snapshotName(const Fields& f)
{
    auto name = f.optString("name");
    if (!name || !*name)
        return name;
    if ((*name)->empty() || (*name)->size() > 200)
        return invalidArgument("field \"name\" must be 1 to 200 characters");
    for (unsigned char c : **name) {
        if (c < 0x20 || c == 0x7f)
            return invalidArgument("field \"name\" contains control characters");
    }
    return name;
}

// The body of a take or a PATCH: its name and warm pool size if given. scope is the cloud's
// sharing (every snapshot here restores in its own project): checked for type, then ignored.
struct SnapshotBody
{
    std::optional<std::string> name;
    std::optional<int> poolSize;
};

Result<SnapshotBody> snapshotBody(const http::Request& request)
{
    auto body = parseJsonObject(request);
    if (!body)
        return body.error();
    Fields f(*body);
    auto name = snapshotName(f);
    if (!name)
        return name.error();
    auto pool = f.optInt("poolSize");
    if (!pool)
        return pool.error();
    if (*pool && (**pool < 0 || **pool > 100))
        return invalidArgument("field \"poolSize\" must be 0..100");
    auto scope = f.optString("scope");
    if (!scope)
        return scope.error();
    if (*scope && **scope != "project" && **scope != "workspace" && **scope != "user")
        return invalidArgument("field \"scope\" must be project, workspace or user");
    SnapshotBody out;
    out.name = *name;
    if (*pool)
        out.poolSize = int(**pool);
    return out;
}

nlohmann::json viewOf(const ApiContext& ctx, const store::SnapshotRecord& s)
{
    return snapshotJson(s, ctx.pools ? ctx.pools->snapshotPool(s) : sandboxes::PoolState{});
}

nlohmann::json listJson(const ApiContext& ctx, const std::vector<store::Store::SnapshotPtr>& snaps)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& s : snaps)
        out.push_back(viewOf(ctx, *s));
    return out;
}

// Stores the snapshot's pool (size, paused) and applies it.
Status setPool(ApiContext& ctx, const std::string& id, int poolSize, bool paused)
{
    if (Status s = ctx.store.setSnapshotPool(id, poolSize, paused); !s)
        return s;
    if (ctx.pools)
        ctx.pools->configureSnapshot(*ctx.store.snapshot(id));
    return okStatus();
}

Error snapshotNotFound(const std::string& id)
{
    return Error{ErrorKind::NotFound, "NOT_FOUND", "snapshot " + id + " not found"};
}

} // namespace

void registerSnapshotRoutes(Router& router, ApiContext& ctx)
{
    store::Store& st = ctx.store;
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    router.add(
        verb::post, "/api/sandboxes/{}/snapshot", [&ctx, &mgr](const ExPtr& ex, const Params& p) {
            const auto source = sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running);
            if (!source)
                return;
            if (Status room = mgr.checkStorage(); !room)
                return ex->replyError(room.error());
            auto body = snapshotBody(ex->request());
            if (!body)
                return ex->replyError(body.error());
            // Terminals are lizard-local's sessions, not the sandbox's: not in the snapshot.
            const int terminals = mgr.terminals().running(source->id);
            mgr.snapshots().take(
                source, body->name.value_or("Snapshot " + source->id), ex->executor(),
                [ex, &ctx, &mgr, id = source->id, poolSize = body->poolSize.value_or(0),
                 terminals](Result<store::Store::SnapshotPtr> r) {
                    if (r) { // a failed snapshot has no id to log
                        mgr.logs().append(id, "info", "lifecycle",
                                          "snapshot " + r.value()->id + " taken" +
                                              (terminals > 0
                                                   ? "; " + std::to_string(terminals) +
                                                         " terminal(s) not in it (copies start "
                                                         "with none)"
                                                   : std::string()));
                        mgr.recordActivity(
                            id, "snapshot",
                            {{"snapshotId", r.value()->id}, {"name", r.value()->name}});
                        if (Status s = setPool(ctx, r.value()->id, poolSize, false); !s)
                            log::warn("snapshot " + r.value()->id + ": " + s.error().message);
                    }
                    onExchange(ex, [ex, &ctx, r = std::move(r), terminals] {
                        if (!r)
                            return ex->replyError(r.error());
                        nlohmann::json view = viewOf(ctx, *ctx.store.snapshot(r.value()->id));
                        view["terminalsNotCopied"] = terminals;
                        ex->replyJson(200, view);
                    });
                });
        });
    router.add(verb::get, "/api/projects/{}/snapshots",
               [&ctx, &st](const ExPtr& ex, const Params& p) {
                   auto project = st.project(p[0]);
                   if (!project)
                       project = st.projectBySlug(p[0]);
                   if (!project)
                       return ex->replyError(Error{ErrorKind::NotFound, "NOT_FOUND",
                                                   "project " + p[0] + " not found"});
                   ex->replyJson(200, listJson(ctx, st.snapshots(project->id)));
               });
    router.add(verb::get, "/api/sandbox-snapshots", [&ctx, &st](const ExPtr& ex, const Params&) {
        ex->replyJson(200, listJson(ctx, st.snapshots()));
    });
    router.add(verb::get, "/api/sandbox-snapshots/{}",
               [&ctx, &st](const ExPtr& ex, const Params& p) {
                   if (auto s = st.snapshot(p[0]))
                       return ex->replyJson(200, viewOf(ctx, *s));
                   ex->replyError(snapshotNotFound(p[0]));
               });
    router.add(verb::patch, "/api/sandbox-snapshots/{}",
               [&ctx, &st](const ExPtr& ex, const Params& p) {
                   auto snap = st.snapshot(p[0]);
                   if (!snap)
                       return ex->replyError(snapshotNotFound(p[0]));
                   auto body = snapshotBody(ex->request());
                   if (!body)
                       return ex->replyError(body.error());
                   if (body->name) {
                       if (Status s = st.renameSnapshot(p[0], *body->name); !s)
                           return ex->replyError(s.error());
                   }
                   if (body->poolSize) {
                       if (Status s = setPool(ctx, p[0], *body->poolSize, snap->poolPaused); !s)
                           return ex->replyError(s.error());
                   }
                   ex->replyJson(200, viewOf(ctx, *st.snapshot(p[0])));
               });
    // pause: its idle warm copies end and it does not refill (restores start cold); resume:
    // it refills to its size.
    for (const bool pause : {true, false}) {
        router.add(verb::post,
                   pause ? "/api/sandbox-snapshots/{}/pause" : "/api/sandbox-snapshots/{}/resume",
                   [&ctx, &st, pause](const ExPtr& ex, const Params& p) {
                       auto snap = st.snapshot(p[0]);
                       if (!snap)
                           return ex->replyError(snapshotNotFound(p[0]));
                       if (Status s = setPool(ctx, p[0], snap->poolSize, pause); !s)
                           return ex->replyError(s.error());
                       ex->replyJson(200, viewOf(ctx, *st.snapshot(p[0])));
                   });
    }
    router.add(verb::delete_, "/api/sandbox-snapshots/{}",
               [&ctx, &mgr](const ExPtr& ex, const Params& p) {
                   // A template's version or cached layer goes with its template.
                   if (ctx.templates) {
                       if (auto owner = ctx.templates->snapshotOwner(p[0]))
                           return ex->replyError(
                               Error{ErrorKind::Conflict, "TEMPLATE_SNAPSHOT",
                                     "snapshot " + p[0] + " belongs to template " + *owner +
                                         " (a version or a cached layer); delete the template "
                                         "instead (DELETE /api/templates/" +
                                         *owner + ")"});
                   }
                   // Its warm copies end first (and a copy reading its files is waited for).
                   mgr.runOnWorker([ex, &ctx, &mgr, id = p[0]] {
                       if (ctx.pools)
                           ctx.pools->removeSnapshot(id);
                       Status s = mgr.snapshots().remove(id);
                       if (!s && ctx.pools) {
                           if (auto snap = ctx.store.snapshot(id))
                               ctx.pools->configureSnapshot(*snap); // still there: pool back
                       }
                       onExchange(ex, [ex, s] {
                           if (!s)
                               return ex->replyError(s.error());
                           ex->replyEmpty();
                       });
                   });
               });
}

} // namespace lizard::api
