// GET /api/auth/me, /api/regions, /api/workspaces: the one local account.
#include "api/routes.h"
#include "common/crypto.h"
#include "http/auth.h"
#include "store/store.h"

namespace lizard::api {

using http::bhttp::verb;

void registerAccountRoutes(Router& router, ApiContext& ctx)
{
    router.add(verb::get, "/api/auth/me",
               [&ctx](const std::shared_ptr<http::Exchange>& ex, const Params&) {
                   nlohmann::json me = {
                       {"id", "usr_local"},      {"username", ctx.serverUser},
                       {"name", ctx.serverUser}, {"email", nullptr},
                       {"avatarUrl", nullptr},   {"scoped", false},
                       {"plan", "local"},        {"workspaceId", store::kWorkspaceId}};
                   if (const auto key = http::presentedApiKey(ex->request())) {
                       if (const auto rec = ctx.store.keyByHash(sha256Hex(*key))) {
                           me["keyId"] = rec->id;
                           me["keyPrefix"] = rec->prefix;
                       }
                   }
                   ex->replyJson(200, me);
               });
    router.add(verb::get, "/api/regions",
               [](const std::shared_ptr<http::Exchange>& ex, const Params&) {
                   ex->replyJson(200, nlohmann::json::array({{{"id", "local"},
                                                              {"name", "local"},
                                                              {"label", "This computer"},
                                                              {"available", true},
                                                              {"isDefault", true}}}));
               });
    router.add(
        verb::get, "/api/workspaces", [](const std::shared_ptr<http::Exchange>& ex, const Params&) {
            ex->replyJson(
                200, nlohmann::json::array({{{"id", store::kWorkspaceId}, {"name", "Local"}}}));
        });
}

} // namespace lizard::api
