// Projects of the local workspace. The project with slug `default` (created on first
// start, used when a sandbox is created without projectId) can be renamed, not deleted.
#include "api/jsonbody.h"
#include "api/routes.h"
#include "api/views.h"
#include "sandboxes/sandboxmanager.h"
#include "store/store.h"

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

Result<std::string> projectName(const nlohmann::json& body)
{
    auto name = Fields(body).requiredString("name");
    if (!name)
        return name;
    if (name->size() > 100)
        return invalidArgument("field \"name\" is longer than 100 characters");
    for (unsigned char c : *name) {
        if (c < 0x20 || c == 0x7f)
            return invalidArgument("field \"name\" contains control characters");
    }
    if (name->find_first_not_of(' ') == std::string::npos)
        return invalidArgument("field \"name\" is blank");
    return name;
}

// A project by id, or by slug (a convenience for people typing URLs).
std::optional<store::ProjectRecord> findProject(const store::Store& st, const std::string& ref)
{
    if (auto p = st.project(ref))
        return p;
    return st.projectBySlug(ref);
}

} // namespace

void registerProjectRoutes(Router& router, ApiContext& ctx)
{
    store::Store& st = ctx.store;
    router.add(verb::get, "/api/projects", [&st](const ExPtr& ex, const Params&) {
        nlohmann::json out = nlohmann::json::array();
        const auto ws = ex->query("workspaceId");
        if (!ws || ws->empty() || *ws == store::kWorkspaceId) {
            for (const auto& p : st.projects())
                out.push_back(projectJson(p));
        }
        ex->replyJson(200, out);
    });
    router.add(verb::post, "/api/projects", [&st](const ExPtr& ex, const Params&) {
        auto body = parseJsonObject(ex->request());
        if (!body)
            return ex->replyError(body.error());
        auto ws = Fields(*body).optString("workspaceId");
        if (!ws)
            return ex->replyError(ws.error());
        if (*ws && **ws != store::kWorkspaceId)
            return ex->replyError(Error{ErrorKind::NotFound, "NOT_FOUND",
                                        "workspace " + **ws + " not found (lizard-local has one: " +
                                            store::kWorkspaceId + ")"});
        auto name = projectName(*body);
        if (!name)
            return ex->replyError(name.error());
        auto created = st.createProject(*name);
        if (!created)
            return ex->replyError(created.error());
        ex->replyJson(200, projectJson(*created));
    });
    router.add(verb::get, "/api/projects/{}", [&st](const ExPtr& ex, const Params& p) {
        if (auto project = findProject(st, p[0]))
            return ex->replyJson(200, projectJson(*project));
        ex->replyError(Error{ErrorKind::NotFound, "NOT_FOUND", "project " + p[0] + " not found"});
    });
    router.add(verb::patch, "/api/projects/{}", [&st](const ExPtr& ex, const Params& p) {
        auto project = findProject(st, p[0]);
        if (!project)
            return ex->replyError(
                Error{ErrorKind::NotFound, "NOT_FOUND", "project " + p[0] + " not found"});
        auto body = parseJsonObject(ex->request());
        if (!body)
            return ex->replyError(body.error());
        auto name = projectName(*body);
        if (!name)
            return ex->replyError(name.error());
        auto renamed = st.renameProject(project->id, *name);
        if (!renamed)
            return ex->replyError(renamed.error());
        ex->replyJson(200, projectJson(*renamed));
    });
    router.add(verb::delete_, "/api/projects/{}", [&st](const ExPtr& ex, const Params& p) {
        auto project = findProject(st, p[0]);
        if (!project)
            return ex->replyError(
                Error{ErrorKind::NotFound, "NOT_FOUND", "project " + p[0] + " not found"});
        if (project->slug == "default")
            return ex->replyError(
                Error{ErrorKind::Conflict, "CONFLICT",
                      "the default project cannot be deleted (rename it instead)"});
        if (Status s = st.deleteProject(project->id); !s)
            return ex->replyError(s.error());
        ex->replyEmpty();
    });
    router.add(verb::get, "/api/projects/{}/sandboxes",
               [&st, &ctx](const ExPtr& ex, const Params& p) {
                   auto project = findProject(st, p[0]);
                   if (!project)
                       return ex->replyError(Error{ErrorKind::NotFound, "NOT_FOUND",
                                                   "project " + p[0] + " not found"});
                   nlohmann::json out = nlohmann::json::array();
                   for (const auto& s : st.runningSandboxes(project->id))
                       out.push_back(sandboxJson(*s, ctx.sandboxes.disk(s->id)));
                   ex->replyJson(200, out);
               });
}

} // namespace lizard::api
