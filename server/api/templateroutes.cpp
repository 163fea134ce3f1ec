// Templates (a local extension): the built-in ones with their warm pools. GET /api/templates,
// GET /api/templates/{name}, PATCH /api/templates/{name} {poolSize}.
#include "api/jsonbody.h"
#include "api/routes.h"
#include "api/warmpools.h"

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

Error templateNotFound(const std::string& name)
{
    return Error{ErrorKind::NotFound, "NOT_FOUND",
                 "template " + name + " not found (base, interpreter, desktop)"};
}

Error poolsOff()
{
    return Error{ErrorKind::Unavailable, "POOLS_UNAVAILABLE",
                 "this lizard-local keeps no warm pools"};
}

} // namespace

void registerTemplateRoutes(Router& router, ApiContext& ctx)
{
    router.add(verb::get, "/api/templates", [&ctx](const ExPtr& ex, const Params&) {
        if (!ctx.pools)
            return ex->replyError(poolsOff());
        nlohmann::json out = nlohmann::json::array();
        for (const char* name : WarmPools::kTemplates)
            out.push_back(ctx.pools->templateJson(name));
        ex->replyJson(200, out);
    });
    router.add(verb::get, "/api/templates/{}", [&ctx](const ExPtr& ex, const Params& p) {
        if (!ctx.pools)
            return ex->replyError(poolsOff());
        if (!known(p[0]))
            return ex->replyError(templateNotFound(p[0]));
        ex->replyJson(200, ctx.pools->templateJson(p[0]));
    });
    router.add(verb::patch, "/api/templates/{}", [&ctx](const ExPtr& ex, const Params& p) {
        if (!ctx.pools)
            return ex->replyError(poolsOff());
        if (!known(p[0]))
            return ex->replyError(templateNotFound(p[0]));
        auto body = parseJsonObject(ex->request());
        if (!body)
            return ex->replyError(body.error());
        auto size = Fields(*body).optInt("poolSize");
        if (!size)
            return ex->replyError(size.error());
        if (!*size || **size < 0 || **size > 16)
            return ex->replyError(invalidArgument("field \"poolSize\" must be an integer from 0 "
                                                  "to 16 (warm copies of the template)"));
        if (Status s = ctx.pools->setTemplatePool(p[0], int(**size)); !s)
            return ex->replyError(s.error());
        ex->replyJson(200, ctx.pools->templateJson(p[0]));
    });
}

} // namespace lizard::api
