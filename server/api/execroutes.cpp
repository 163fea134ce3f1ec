// POST /api/sandboxes/{id}/exec, GET processes, POST processes/signal.
#include "api/agenterroranswers.h"
#include "api/execrequest.h"
#include "api/execstream.h"
#include "api/jsonbody.h"
#include "api/keystreams.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "api/views.h"
#include "common/crypto.h"
#include "http/auth.h"
#include "sandboxes/sandboxmanager.h"
#include "store/store.h"

#include <array>

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

constexpr std::array<const char*, 7> kSignals{"SIGTERM", "SIGKILL", "SIGINT", "SIGHUP",
                                              "SIGQUIT", "SIGUSR1", "SIGUSR2"};

struct SignalTarget
{
    store::SandboxPtr sandbox;
    int64_t pid = 0;
    std::string signal;
    bool tree = false;
};

// The body of a signal call, `{pid, signal?, tree?}`, checked; replies and returns nothing
// when the sandbox or the body is wrong.
std::optional<SignalTarget> signalTarget(sandboxes::SandboxManager& mgr, const ExPtr& ex,
                                         const std::string& id)
{
    auto checked = sandboxAndBody(mgr, ex, id, SandboxNeed::Active);
    if (!checked)
        return std::nullopt;
    auto& [sb, body] = *checked;
    Fields f(body);
    auto pid = f.optInt("pid");
    if (!pid)
        return ex->replyError(pid.error()), std::nullopt;
    if (!*pid || **pid <= 0 || **pid > 4194304)
        return ex->replyError(invalidArgument("field \"pid\" is required (a positive integer)")),
               std::nullopt;
    auto sig = f.optString("signal");
    if (!sig)
        return ex->replyError(sig.error()), std::nullopt;
    const std::string name = sig->value_or("SIGTERM");
    if (std::find(kSignals.begin(), kSignals.end(), name) == kSignals.end())
        return ex->replyError(invalidArgument(
                   "field \"signal\" must be one of SIGTERM, SIGKILL, SIGINT, SIGHUP, SIGQUIT, "
                   "SIGUSR1, SIGUSR2; got \"" +
                   name + "\"")),
               std::nullopt;
    auto tree = f.optBool("tree");
    if (!tree)
        return ex->replyError(tree.error()), std::nullopt;
    return SignalTarget{sb, **pid, name, tree->value_or(false)};
}

} // namespace

void trackByKey(ApiContext& ctx, const ExPtr& ex, const std::shared_ptr<Revocable>& request)
{
    const auto key = http::presentedApiKey(ex->request());
    if (!key || ctx.keyStreams == nullptr)
        return;
    const auto rec = ctx.store.keyByHash(sha256Hex(*key));
    if (rec && rec->bootstrap)
        return; // never revoked while the server runs
    if (rec)
        ctx.keyStreams->add(rec->id, request);
    // Revoked since its check (before add, or between the lookup and add): end it now.
    if (!rec || !ctx.store.keyById(rec->id))
        request->revoke();
}

void registerExecRoutes(Router& router, ApiContext& ctx)
{
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    router.add(
        verb::post, "/api/sandboxes/{}/exec", [&mgr, &ctx](const ExPtr& ex, const Params& p) {
            auto checked = sandboxAndBody(mgr, ex, p[0], SandboxNeed::Active);
            if (!checked)
                return;
            auto& [sb, body] = *checked;
            auto parsed = parseExec(body);
            if (!parsed)
                return ex->replyError(parsed.error());
            // A broken agent connection is a hint that the sandbox died: look at once rather
            // than at the next health round.
            const std::string id = p[0];
            auto suspect = [&mgr, id] { mgr.checkSoon(id); };
            const auto mark = ex->request().find("X-Lizard-Housekeeping");
            const bool housekeeping = mark != ex->request().end() && mark->value() == "1";
            auto activity =
                sandboxes::ExecActivity::start(mgr.activity(), id, parsed->request, housekeeping);
            if (ex->wantsEventStream()) {
                auto stream = std::make_shared<ExecStream>(
                    ex, sb->handle.socketPath, std::move(parsed->request), parsed->pidEvent);
                stream->onUnreachable(suspect);
                stream->setActivity(std::move(activity));
                stream->setOomCounter([&mgr, handle = sb->handle] { return mgr.oomKills(handle); });
                stream->start();
                trackByKey(ctx, ex, stream);
            } else {
                auto collect = std::make_shared<ExecCollect>(ex, sb->handle.socketPath,
                                                             std::move(parsed->request));
                collect->onUnreachable(suspect);
                collect->setActivity(std::move(activity));
                collect->start();
                trackByKey(ctx, ex, collect);
            }
        });
}

void registerProcessRoutes(Router& router, ApiContext& ctx)
{
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    router.add(verb::get, "/api/sandboxes/{}/processes", [&mgr](const ExPtr& ex, const Params& p) {
        const auto sb = sandboxOrReply(mgr, ex, p[0], SandboxNeed::Active);
        if (!sb)
            return;
        askAgent(ex, sb, {{"op", "processes"}}, [ex](const nlohmann::json& r) {
            nlohmann::json out = nlohmann::json::array();
            if (const auto it = r.find("processes"); it != r.end() && it->is_array()) {
                for (const auto& proc : *it)
                    out.push_back(processJson(proc));
            }
            ex->replyJson(200, out);
        });
    });
    router.add(
        verb::post, "/api/sandboxes/{}/processes/signal", [&mgr](const ExPtr& ex, const Params& p) {
            auto target = signalTarget(mgr, ex, p[0]);
            if (!target)
                return;
            const int64_t pid = target->pid;
            askAgent(
                ex, target->sandbox, {{"op", "signal"}, {"pid", pid}, {"signal", target->signal}},
                [ex](const nlohmann::json&) { ex->replyEmpty(); },
                [pid](const Error& agentError) {
                    Error e = apiErrorFromAgent(agentError);
                    if (e.code == "NO_SUCH_PROCESS")
                        e = Error{ErrorKind::NotFound, "NOT_FOUND",
                                  "no process " + std::to_string(pid) +
                                      " started by exec is running"};
                    return e;
                });
        });
    // Local extension: every process of the sandbox, not only what exec started.
    router.add(verb::get, "/api/sandboxes/{}/processes/tree",
               [&mgr](const ExPtr& ex, const Params& p) {
                   const auto sb = sandboxOrReply(mgr, ex, p[0], SandboxNeed::Active);
                   if (!sb)
                       return;
                   askAgent(ex, sb, {{"op", "processTree"}}, [ex](const nlohmann::json& r) {
                       nlohmann::json out = r;
                       out.erase("ok");
                       ex->replyJson(200, out);
                   });
               });
    router.add(verb::post, "/api/sandboxes/{}/processes/tree/signal",
               [&mgr](const ExPtr& ex, const Params& p) {
                   auto target = signalTarget(mgr, ex, p[0]);
                   if (!target)
                       return;
                   askAgent(
                       ex, target->sandbox,
                       {{"op", "signalProcess"},
                        {"pid", target->pid},
                        {"signal", target->signal},
                        {"tree", target->tree}},
                       [ex](const nlohmann::json&) { ex->replyEmpty(); },
                       [](const Error& agentError) {
                           Error e = apiErrorFromAgent(agentError);
                           if (e.code == "PERMISSION_DENIED")
                               e.kind = ErrorKind::Forbidden;
                           else if (e.code == "NO_SUCH_PROCESS")
                               e.code = "NOT_FOUND";
                           return e;
                       });
               });
}

} // namespace lizard::api
