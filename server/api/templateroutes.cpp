// Templates (a local extension): the built-in ones with their warm pools, and the ones built
// from recipes (sandboxes/templates/). GET /api/templates, GET|PATCH|DELETE
// /api/templates/{name}, POST /api/templates {name, recipe, files?, timeoutMs?} (a build),
// GET /api/templates/{name}/builds[/{id}[/log]] (the log as Server-Sent Events).
#include "api/buildlogstream.h"
#include "api/jsonbody.h"
#include "api/routes.h"
#include "api/templateviews.h"
#include "api/warmpools.h"
#include "common/base64.h"
#include "sandboxes/sandboxmanager.h"
#include "sandboxes/templates/recipe.h"

#include <algorithm>

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

bool known(const std::string& name)
{
    return std::any_of(std::begin(WarmPools::kTemplates), std::end(WarmPools::kTemplates),
                       [&](const char* t) { return name == t; });
}

bool recipeTemplate(const ApiContext& ctx, const std::string& name)
{
    if (!ctx.templates)
        return false;
    const auto names = ctx.templates->names();
    return std::find(names.begin(), names.end(), name) != names.end();
}

Error templateNotFound(const std::string& name)
{
    return Error{ErrorKind::NotFound, "NOT_FOUND",
                 "template " + name +
                     " not found (base, interpreter, desktop, or one built "
                     "from a recipe here)"};
}

Error poolsOff()
{
    return Error{ErrorKind::Unavailable, "POOLS_UNAVAILABLE",
                 "this lizard-local keeps no warm pools"};
}

Error recipesOff()
{
    return Error{ErrorKind::NotImplemented, "NOT_IMPLEMENTED",
                 "this lizard-local builds no templates from recipes"};
}

sandboxes::PoolState poolOf(const ApiContext& ctx, const std::string& name)
{
    if (!ctx.pools || !ctx.templates)
        return {};
    const auto latest = ctx.templates->resolve(name);
    if (!latest || latest->snapshotId.empty())
        return {};
    const auto snap = ctx.store.snapshot(latest->snapshotId);
    return snap ? ctx.pools->snapshotPool(*snap) : sandboxes::PoolState{};
}

nlohmann::json userTemplateJson(const ApiContext& ctx, const std::string& name, bool detail)
{
    nlohmann::json j = recipeTemplateJson(*ctx.templates, name, poolOf(ctx, name), detail);
    // The setting, as for a built-in template (poolSize is what the host's caps leave of it).
    int requested = 0;
    if (const auto latest = ctx.templates->resolve(name); latest && !latest->snapshotId.empty())
        if (const auto snap = ctx.store.snapshot(latest->snapshotId))
            requested = snap->poolSize;
    j["requestedPoolSize"] = requested;
    return j;
}

// The build's body: {name, recipe, files?: {source: base64}, timeoutMs?}.
Result<sandboxes::BuildRequest> buildRequest(const nlohmann::json& body)
{
    Fields f(body);
    sandboxes::BuildRequest r;
    auto name = f.requiredString("name");
    if (!name)
        return name.error();
    r.name = *name;
    auto recipe = f.requiredString("recipe");
    if (!recipe)
        return recipe.error();
    r.recipe = *recipe;
    auto files = f.stringMap("files");
    if (!files)
        return files.error();
    for (auto& [src, encoded] : *files) {
        auto bytes = base64Decode(encoded);
        if (!bytes)
            return invalidArgument("field \"files\": the content of " + src + " is not base64");
        r.files.emplace(src, std::move(*bytes));
    }
    auto timeout = f.optInt("timeoutMs");
    if (!timeout)
        return timeout.error();
    r.timeoutMs = timeout->value_or(0);
    return r;
}

// POST /api/templates/check {recipe}: what a build would run, or the recipe's first error (as
// the build would answer it), without building: how an editor validates as one types.
void registerCheckRoute(Router& router, ApiContext& ctx)
{
    router.add(verb::post, "/api/templates/check", [&ctx](const ExPtr& ex, const Params&) {
        if (!ctx.templates)
            return ex->replyError(recipesOff());
        auto body = parseJsonObject(ex->request());
        if (!body)
            return ex->replyError(body.error());
        auto text = Fields(*body).requiredString("recipe");
        if (!text)
            return ex->replyError(text.error());
        auto recipe = sandboxes::parseRecipe(*text);
        if (!recipe)
            return ex->replyError(recipe.error());
        const std::string& from = recipe->from;
        if (!sandboxes::TemplateBuilder::builtIn(from) && !ctx.templates->resolve(from))
            return ex->replyError(Error{ErrorKind::NotFound, "NOT_FOUND",
                                        "line " + std::to_string(recipe->fromLine) + ": template " +
                                            from +
                                            " not found (base, "
                                            "interpreter, desktop or one "
                                            "built here)"});
        nlohmann::json steps = nlohmann::json::array();
        nlohmann::json files = nlohmann::json::array();
        for (const auto& s : recipe->steps) {
            steps.push_back({{"kind", sandboxes::stepKindName(s.kind)},
                             {"line", s.line},
                             {"label", sandboxes::stepLabel(s)},
                             {"items", s.items}});
            for (const auto& [src, dst] : s.files)
                files.push_back({{"source", src}, {"destination", dst}});
        }
        ex->replyJson(200,
                      {{"from", from}, {"steps", steps}, {"files", files}, {"env", recipe->env}});
    });
}

void registerBuildRoutes(Router& router, ApiContext& ctx)
{
    registerCheckRoute(router, ctx);
    router.add(verb::post, "/api/templates", [&ctx](const ExPtr& ex, const Params&) {
        if (!ctx.templates)
            return ex->replyError(recipesOff());
        if (Status room = ctx.sandboxes.checkStorage(); !room)
            return ex->replyError(room.error());
        auto body = parseJsonObject(ex->request());
        if (!body)
            return ex->replyError(body.error());
        auto request = buildRequest(*body);
        if (!request)
            return ex->replyError(request.error());
        auto build = ctx.templates->build(std::move(*request));
        if (!build)
            return ex->replyError(build.error());
        ex->replyJson(202, buildJson(*build));
    });
    router.add(verb::get, "/api/templates/{}/builds", [&ctx](const ExPtr& ex, const Params& p) {
        if (!recipeTemplate(ctx, p[0]))
            return ex->replyError(templateNotFound(p[0]));
        nlohmann::json out = nlohmann::json::array();
        for (const auto& b : ctx.templates->builds(p[0], 1000))
            out.push_back(buildJson(b));
        ex->replyJson(200, out);
    });
    router.add(verb::get, "/api/templates/{}/builds/{}", [&ctx](const ExPtr& ex, const Params& p) {
        if (!ctx.templates)
            return ex->replyError(recipesOff());
        auto b = ctx.templates->buildOf(p[0], p[1]);
        if (!b)
            return ex->replyError(b.error());
        ex->replyJson(200, buildJson(*b));
    });
    router.add(verb::get, "/api/templates/{}/builds/{}/log",
               [&ctx](const ExPtr& ex, const Params& p) {
                   if (!ctx.templates)
                       return ex->replyError(recipesOff());
                   auto b = ctx.templates->buildOf(p[0], p[1]);
                   if (!b)
                       return ex->replyError(b.error());
                   auto live = ctx.templates->liveLog(p[1]);
                   auto stream = std::make_shared<BuildLogStream>(
                       ex, live, [&ctx, name = p[0], id = p[1], ended = *b]() {
                           auto now = ctx.templates->buildOf(name, id);
                           return buildJson(now ? *now : ended);
                       });
                   std::vector<std::string> lines;
                   if (!live) // ended: its file says it all
                       lines = sandboxes::BuildLog::readFile(ctx.templates->logPath(p[1]));
                   stream->start(std::move(lines));
                   trackByKey(ctx, ex, stream);
               });
}

} // namespace

void registerTemplateRoutes(Router& router, ApiContext& ctx)
{
    router.add(verb::get, "/api/templates", [&ctx](const ExPtr& ex, const Params&) {
        nlohmann::json out = nlohmann::json::array();
        if (ctx.pools) {
            for (const char* name : WarmPools::kTemplates)
                out.push_back(ctx.pools->templateJson(name));
        } else if (!ctx.templates) {
            return ex->replyError(poolsOff());
        }
        if (ctx.templates)
            for (const auto& name : ctx.templates->names())
                out.push_back(userTemplateJson(ctx, name, false));
        ex->replyJson(200, out);
    });
    router.add(verb::get, "/api/templates/{}", [&ctx](const ExPtr& ex, const Params& p) {
        if (recipeTemplate(ctx, p[0]))
            return ex->replyJson(200, userTemplateJson(ctx, p[0], true));
        if (!known(p[0]))
            return ex->replyError(templateNotFound(p[0]));
        if (!ctx.pools)
            return ex->replyError(poolsOff());
        ex->replyJson(200, ctx.pools->templateJson(p[0]));
    });
    router.add(verb::patch, "/api/templates/{}", [&ctx](const ExPtr& ex, const Params& p) {
        const bool mine = recipeTemplate(ctx, p[0]);
        if (!mine && !known(p[0]))
            return ex->replyError(templateNotFound(p[0]));
        if (!ctx.pools)
            return ex->replyError(poolsOff());
        auto body = parseJsonObject(ex->request());
        if (!body)
            return ex->replyError(body.error());
        auto size = Fields(*body).optInt("poolSize");
        if (!size)
            return ex->replyError(size.error());
        if (!*size || **size < 0 || **size > 16)
            return ex->replyError(invalidArgument("field \"poolSize\" must be an integer from 0 "
                                                  "to 16 (warm copies of the template)"));
        if (mine) {
            if (Status s = ctx.templates->setPoolSize(p[0], int(**size)); !s)
                return ex->replyError(s.error());
            return ex->replyJson(200, userTemplateJson(ctx, p[0], true));
        }
        if (Status s = ctx.pools->setTemplatePool(p[0], int(**size)); !s)
            return ex->replyError(s.error());
        ex->replyJson(200, ctx.pools->templateJson(p[0]));
    });
    router.add(verb::delete_, "/api/templates/{}", [&ctx](const ExPtr& ex, const Params& p) {
        if (known(p[0]) || p[0] == "code-interpreter-v1")
            return ex->replyError(Error{ErrorKind::Conflict, "TEMPLATE_BUILT_IN",
                                        "template " + p[0] + " is built in and cannot be deleted"});
        if (!ctx.templates)
            return ex->replyError(recipesOff());
        // Blocking: the snapshots' warm copies end first.
        ctx.sandboxes.runOnWorker([ex, &ctx, name = p[0]] {
            Status s = ctx.templates->remove(name);
            onExchange(ex, [ex, s] {
                if (!s)
                    return ex->replyError(s.error());
                ex->replyEmpty();
            });
        });
    });
    registerBuildRoutes(router, ctx);
}

} // namespace lizard::api
