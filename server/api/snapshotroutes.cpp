// Snapshots: take (POST /api/sandboxes/{id}/snapshot), list per project and all, get,
// PATCH (name; poolSize and scope accepted and ignored), delete.
#include "api/jsonbody.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "api/views.h"
#include "sandboxes/sandboxmanager.h"
#include "sandboxes/snapshotservice.h"
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

// poolSize and scope are the cloud's warm pools and sharing; here every snapshot restores from
// disk in its own project. Checked for type, then ignored.
Status ignoredFields(const Fields& f)
{
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
    return okStatus();
}

// The body of a take or a PATCH: the name if given, the ignored fields checked.
Result<std::optional<std::string>> snapshotBody(const http::Request& request)
{
    auto body = parseJsonObject(request);
    if (!body)
        return body.error();
    Fields f(*body);
    auto name = snapshotName(f);
    if (!name)
        return name;
    if (Status s = ignoredFields(f); !s)
        return s.error();
    return name;
}

nlohmann::json listJson(const std::vector<store::Store::SnapshotPtr>& snaps)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& s : snaps)
        out.push_back(snapshotJson(*s));
    return out;
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
    router.add(verb::post, "/api/sandboxes/{}/snapshot", [&mgr](const ExPtr& ex, const Params& p) {
        const auto source = sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running);
        if (!source)
            return;
        if (Status room = mgr.checkStorage(); !room)
            return ex->replyError(room.error());
        auto name = snapshotBody(ex->request());
        if (!name)
            return ex->replyError(name.error());
        mgr.snapshots().take(
            source, name->value_or("Snapshot " + source->id), ex->executor(),
            [ex, &mgr, id = source->id](Result<store::Store::SnapshotPtr> r) {
                if (r) { // a failed snapshot has no id to log
                    mgr.logs().append(id, "info", "lifecycle",
                                      "snapshot " + r.value()->id + " taken");
                    mgr.recordActivity(id, "snapshot",
                                       {{"snapshotId", r.value()->id}, {"name", r.value()->name}});
                }
                onExchange(ex, [ex, r = std::move(r)] {
                    if (!r)
                        return ex->replyError(r.error());
                    ex->replyJson(200, snapshotJson(*r.value()));
                });
            });
    });
    router.add(verb::get, "/api/projects/{}/snapshots", [&st](const ExPtr& ex, const Params& p) {
        auto project = st.project(p[0]);
        if (!project)
            project = st.projectBySlug(p[0]);
        if (!project)
            return ex->replyError(
                Error{ErrorKind::NotFound, "NOT_FOUND", "project " + p[0] + " not found"});
        ex->replyJson(200, listJson(st.snapshots(project->id)));
    });
    router.add(verb::get, "/api/sandbox-snapshots", [&st](const ExPtr& ex, const Params&) {
        ex->replyJson(200, listJson(st.snapshots()));
    });
    router.add(verb::get, "/api/sandbox-snapshots/{}", [&st](const ExPtr& ex, const Params& p) {
        if (auto s = st.snapshot(p[0]))
            return ex->replyJson(200, snapshotJson(*s));
        ex->replyError(snapshotNotFound(p[0]));
    });
    router.add(verb::patch, "/api/sandbox-snapshots/{}", [&st](const ExPtr& ex, const Params& p) {
        auto snap = st.snapshot(p[0]);
        if (!snap)
            return ex->replyError(snapshotNotFound(p[0]));
        auto name = snapshotBody(ex->request());
        if (!name)
            return ex->replyError(name.error());
        if (*name) {
            if (Status s = st.renameSnapshot(p[0], **name); !s)
                return ex->replyError(s.error());
        }
        ex->replyJson(200, snapshotJson(*st.snapshot(p[0])));
    });
    router.add(verb::delete_, "/api/sandbox-snapshots/{}",
               [&mgr](const ExPtr& ex, const Params& p) {
                   if (Status s = mgr.snapshots().remove(p[0]); !s)
                       return ex->replyError(s.error());
                   ex->replyEmpty();
               });
}

} // namespace lizard::api
