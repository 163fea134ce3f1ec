// Sandboxes: create, list, info, kill, timeout.
#include "api/jsonbody.h"
#include "api/lifecyclerequest.h"
#include "api/restoreparams.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "api/sizes.h"
#include "api/views.h"
#include "common/timeutil.h"
#include "http/responses.h"
#include "sandboxes/allowedhosts.h"
#include "sandboxes/sandboxmanager.h"
#include "sandboxes/snapshotservice.h"
#include "sandboxes/templates/templatebuilder.h"
#include "store/store.h"

#include <algorithm>
#include <cstdint>

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

Status validEnvNames(const std::map<std::string, std::string>& envs, const std::string& field)
{
    for (const auto& [k, v] : envs) {
        if (k.empty() || k.find('=') != std::string::npos || k.find('\0') != std::string::npos)
            return invalidArgument("field \"" + field + "\" has an invalid variable name \"" + k +
                                   "\"");
        if (v.find('\0') != std::string::npos)
            return invalidArgument("field \"" + field + "." + k + "\" contains a NUL character");
    }
    return okStatus();
}

// volumeId or volumeName (either names a volume of the sandbox's project): its id, or "".
Result<std::string> createVolume(const Fields& f, const store::Store& st,
                                 const std::string& projectId)
{
    auto byId = f.optString("volumeId");
    if (!byId)
        return byId.error();
    auto byName = f.optString("volumeName");
    if (!byName)
        return byName.error();
    if (*byId && *byName && **byId != **byName) {
        const auto a = st.volume(projectId, **byId);
        const auto b = st.volume(projectId, **byName);
        if (!a || !b || a->id != b->id)
            return invalidArgument("volumeId and volumeName name different volumes");
    }
    const std::optional<std::string> ref = *byId ? *byId : *byName;
    if (!ref)
        return std::string();
    const auto v = st.volume(projectId, *ref);
    if (!v)
        return Error{ErrorKind::NotFound, "NOT_FOUND",
                     "volume " + *ref + " not found in project " + projectId};
    return v->id;
}

// The local template a requested name means: the cloud's code interpreter template
// (`code-interpreter-v1`) is our `interpreter`. Other cloud templates (claude, codex…) have no
// local counterpart: 400, naming what there is.
Result<std::string> localTemplate(const std::string& name)
{
    if (name == "base" || name == "interpreter" || name == "desktop")
        return name;
    if (name == "code-interpreter-v1")
        return std::string("interpreter");
    return Error{ErrorKind::InvalidArgument, "INVALID_TEMPLATE",
                 "template \"" + name +
                     "\" is not available in lizard-local (it may be a Lizard cloud template); "
                     "the local templates are base, interpreter (also called "
                     "code-interpreter-v1) and desktop"};
}

} // namespace

Result<sandboxes::CreateSandboxParams> createParams(const nlohmann::json& body,
                                                    const store::Store& st, nlohmann::json& extra,
                                                    const sandboxes::TemplateBuilder* templates)
{
    Fields f(body);
    sandboxes::CreateSandboxParams p;
    auto hosts = f.stringArray("allowedHosts");
    if (!hosts)
        return hosts.error();
    auto allowed = sandboxes::parseAllowedHosts(*hosts);
    if (!allowed)
        return allowed.error();
    p.allowedHosts = std::move(*allowed);
    if (auto region = f.optString("region"); !region) {
        return region.error();
    } else if (*region && **region != "local") {
        extra["code"] = "region_unavailable"; // the SDK then retries without a region
        return Error{ErrorKind::Unavailable, "REGION_UNAVAILABLE",
                     "region " + **region +
                         " is not available here; lizard-local has one "
                         "region: local"};
    }
    if (auto token = f.optString("lizardToken"); !token)
        return token.error();
    auto tmpl = f.optString("template");
    if (!tmpl)
        return tmpl.error();
    auto local = localTemplate(tmpl->value_or("base"));
    if (local) {
        p.templateName = *local;
    } else if (templates && templates->resolve(**tmpl)) {
        p.templateName = **tmpl; // one built from a recipe: applyTemplateVersion makes it so
    } else {
        if (templates && !templates->names().empty()) {
            Error e = local.error();
            e.message += "; or one built here from a recipe (GET /api/templates lists them)";
            return e;
        }
        return local.error();
    }
    auto project = f.optString("projectId");
    if (!project)
        return project.error();
    std::optional<store::ProjectRecord> rec =
        *project ? st.project(**project) : st.projectBySlug("default");
    if (!rec && *project)
        rec = st.projectBySlug(**project);
    if (!rec)
        return Error{ErrorKind::NotFound, "NOT_FOUND",
                     "project " + project->value_or("default") + " not found"};
    p.projectId = rec->id;
    auto size = f.optString("size");
    if (!size)
        return size.error();
    p.size = size->value_or(kDefaultSize);
    const auto limits = limitsForSize(p.size);
    if (!limits)
        return invalidArgument("field \"size\" must be one of " + sizeNames() + ", got \"" +
                               p.size + "\"");
    p.limits = *limits;
    auto timeout = f.optInt("timeoutMs");
    if (!timeout)
        return timeout.error();
    p.timeoutMs = timeout->value_or(0);
    if (p.timeoutMs != 0 && (p.timeoutMs < 1000 || p.timeoutMs > kMaxTimeoutMs))
        return Error{ErrorKind::InvalidArgument, "INVALID_TIMEOUT",
                     "field \"timeoutMs\" must be 0 (no deadline) or 1000..2147483647"};
    auto metadata = f.stringMap("metadata");
    if (!metadata)
        return metadata.error();
    p.metadata = std::move(*metadata);
    auto envs = f.stringMap("envs");
    if (!envs)
        return envs.error();
    if (Status s = validEnvNames(*envs, "envs"); !s)
        return s.error();
    p.envs = std::move(*envs);
    auto internet = f.optBool("internetAccess");
    if (!internet)
        return internet.error();
    // A list implies no internet; asking for both is a contradiction, not a preference.
    if (!p.allowedHosts.empty() && internet->value_or(false))
        return invalidArgument("allowedHosts implies internetAccess: false; leave internetAccess "
                               "out or set it to false");
    p.internetAccess = internet->value_or(p.allowedHosts.empty());
    auto disk = f.optInt("diskGb");
    if (!disk)
        return disk.error();
    const int64_t diskGb = disk->value_or(p.diskGb);
    if (diskGb < runtime::SandboxDisks::kMinGb || diskGb > runtime::SandboxDisks::kMaxGb)
        return invalidArgument(
            "field \"diskGb\" must be an integer from 1 to 256 (GiB of writable disk)");
    p.diskGb = int(diskGb);
    auto shm = f.optInt("shmMb");
    if (!shm)
        return shm.error();
    if (*shm) {
        p.shmMb = int(std::clamp<int64_t>(**shm, 0, INT32_MAX));
        p.shmExplicit = true;
    }
    auto volume = createVolume(f, st, p.projectId);
    if (!volume)
        return volume.error();
    p.volumeId = *volume;
    auto lifecycle = lifecyclePolicy(body, {}); // local extensions: onTimeout, idlePauseMinutes
    if (!lifecycle)
        return lifecycle.error();
    p.lifecycle = *lifecycle;
    return p;
}

void registerSandboxRoutes(Router& router, ApiContext& ctx)
{
    store::Store& st = ctx.store;
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    router.add(verb::post, "/api/sandboxes", [&ctx, &st, &mgr](const ExPtr& ex, const Params&) {
        if (Status room = mgr.checkStorage(); !room)
            return ex->replyError(room.error());
        auto body = parseJsonObject(ex->request());
        if (!body)
            return ex->replyError(body.error());
        nlohmann::json extra = nlohmann::json::object();
        auto params = createParams(*body, st, extra, ctx.templates);
        if (!params)
            return ex->replyError(params.error(), extra);
        auto restoring = ctx.templates && !sandboxes::TemplateBuilder::builtIn(params->templateName)
                             ? applyTemplateVersion(*body, *params, *ctx.templates, mgr.snapshots())
                             : applySnapshot(*body, *params, mgr.snapshots()); // restore
        if (!restoring)
            return ex->replyError(restoring.error());
        // After the restore's size is known: the bound is the sandbox's memory.
        if (Status s = checkShmSize(*params); !s) {
            if (!restoring->empty())
                mgr.snapshots().release(*restoring);
            return ex->replyError(s.error());
        }
        mgr.create(std::move(*params), [ex, &mgr,
                                        snapshot = *restoring](Result<store::SandboxPtr> created) {
            if (!snapshot.empty())
                mgr.snapshots().release(snapshot);
            onExchange(ex, [ex, &mgr, created = std::move(created)]() mutable {
                if (created)
                    return ex->replyJson(200, sandboxJson(**created, mgr.disk((*created)->id)));
                nlohmann::json more = nlohmann::json::object();
                if (created.error().kind == ErrorKind::LimitReached)
                    more = {{"limit", mgr.maxRunning()},
                            {"running", mgr.runningCount()},
                            {"unit", "sandboxes"},
                            {"retryAfterS", 5}};
                auto res = http::errorResponse(created.error(), more);
                if (created.error().kind == ErrorKind::LimitReached)
                    res.set(http::bhttp::field::retry_after, "5");
                ex->reply(std::move(res));
            });
        });
    });
    router.add(verb::get, "/api/sandboxes", [&st, &mgr](const ExPtr& ex, const Params&) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& s : st.runningSandboxes()) {
            if (mgr.running(s->id))
                out.push_back(sandboxJson(*s, mgr.disk(s->id)));
        }
        ex->replyJson(200, out);
    });
    router.add(verb::get, "/api/sandboxes/{}", [&mgr](const ExPtr& ex, const Params& p) {
        if (auto s = sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running))
            ex->replyJson(200, sandboxJson(*s, mgr.disk(s->id)));
    });
    router.add(verb::delete_, "/api/sandboxes/{}", [&mgr](const ExPtr& ex, const Params& p) {
        mgr.kill(p[0], "killed", [ex](Status s) {
            onExchange(ex, [ex, s] {
                if (!s)
                    return ex->replyError(s.error());
                ex->replyEmpty();
            });
        });
    });
    router.add(verb::post, "/api/sandboxes/{}/timeout", [&mgr](const ExPtr& ex, const Params& p) {
        auto checked = sandboxAndBody(mgr, ex, p[0], SandboxNeed::Running);
        if (!checked)
            return;
        const nlohmann::json& body = checked->body;
        auto timeout = Fields(body).optInt("timeoutMs");
        if (!timeout)
            return ex->replyError(timeout.error());
        if (!*timeout || **timeout < 1000 || **timeout > kMaxTimeoutMs)
            return ex->replyError(Error{ErrorKind::InvalidArgument, "INVALID_TIMEOUT",
                                        "field \"timeoutMs\" must be an integer from 1000 to "
                                        "2147483647 (milliseconds from now)"});
        if (Status s = mgr.setTimeout(p[0], **timeout); !s)
            return ex->replyError(s.error());
        ex->replyEmpty();
    });
}

} // namespace lizard::api
