// PTY terminals, a lizard-local extension (the cloud answers 404): create, list, resize and
// rename, signal and close a sandbox's terminals, and attach to one over a WebSocket
// (api/terminalattach.h). The sessions live in lizard-local (sandboxes/terminals/), their
// programs in the sandbox. Shapes: api/DECISIONS.md, "Terminals".
#include "api/execrequest.h"
#include "api/jsonbody.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "api/terminalattach.h"
#include "common/crypto.h"
#include "common/timeutil.h"
#include "http/auth.h"
#include "http/responses.h"
#include "sandboxes/sandboxmanager.h"

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

constexpr std::size_t kMaxTerminalName = 100; // bytes

nlohmann::json terminalJson(const sandboxes::TerminalInfo& t)
{
    nlohmann::json j{{"terminalId", t.id},
                     {"sandboxId", t.sandboxId},
                     {"name", t.name},
                     {"cmd", t.argv},
                     {"user", t.user},
                     {"cwd", t.cwd},
                     {"tty", t.tty},
                     {"cols", t.cols},
                     {"rows", t.rows},
                     {"pid", t.pid},
                     {"status", t.running ? "running" : "exited"},
                     {"createdAt", isoUtc(t.createdAtMs)},
                     {"createdBy", t.createdBy},
                     {"clients", t.clients}};
    j["exitCode"] = t.exitCode ? nlohmann::json(*t.exitCode) : nlohmann::json(nullptr);
    j["endedAt"] = t.running ? nlohmann::json(nullptr) : nlohmann::json(isoUtc(t.endedAtMs));
    if (!t.running)
        j["endReason"] = t.endReason;
    return j;
}

Error terminalNotFound(const std::string& tid)
{
    return Error{ErrorKind::NotFound, "NOT_FOUND", "no terminal " + tid + " in this sandbox"};
}

// The key's record, for who opened or closed a terminal and whether it may type.
std::optional<store::ApiKeyRecord> callerKey(ApiContext& ctx, const ExPtr& ex)
{
    const auto key = http::presentedApiKey(ex->request());
    if (!key)
        return std::nullopt;
    return ctx.store.keyByHash(sha256Hex(*key));
}

std::string callerName(ApiContext& ctx, const ExPtr& ex)
{
    auto rec = callerKey(ctx, ex);
    return rec ? rec->name : std::string();
}

Result<std::optional<int>> sizeField(const Fields& f, const char* name, int max)
{
    auto v = f.optInt(name);
    if (!v)
        return v.error();
    if (!*v)
        return std::optional<int>();
    if (**v < 1 || **v > max)
        return invalidArgument(std::string("field \"") + name + "\" must be from 1 to " +
                               std::to_string(max) + ", got " + std::to_string(**v));
    return std::optional<int>(int(**v));
}

Result<std::optional<std::string>> nameField(const Fields& f)
{
    auto name = f.optString("name");
    if (!name)
        return name.error();
    if (*name && ((*name)->size() > kMaxTerminalName ||
                  (*name)->find_first_of(std::string("\n\0", 2)) != std::string::npos))
        return invalidArgument("field \"name\" must be one line of at most " +
                               std::to_string(kMaxTerminalName) + " bytes");
    return name;
}

Result<sandboxes::TerminalRequest> parseTerminal(const nlohmann::json& body)
{
    auto command = parseCommandFields(body, CommandRules{false, "user", "cwd"});
    if (!command)
        return command.error();
    sandboxes::TerminalRequest r;
    r.argv = std::move(command->argv);
    r.env = std::move(command->env);
    r.user = std::move(command->user);
    r.cwd = std::move(command->cwd);
    Fields f(body);
    auto cols = sizeField(f, "cols", 1000);
    if (!cols)
        return cols.error();
    auto rows = sizeField(f, "rows", 500);
    if (!rows)
        return rows.error();
    auto name = nameField(f);
    if (!name)
        return name.error();
    r.cols = cols->value_or(80);
    r.rows = rows->value_or(24);
    r.name = name->value_or("");
    return r;
}

// The terminal of a running sandbox (paused counts), or null once the error is answered.
std::shared_ptr<sandboxes::TerminalSession> terminalOrReply(sandboxes::SandboxManager& mgr,
                                                            const ExPtr& ex, const Params& p)
{
    if (!sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running))
        return nullptr;
    auto session = mgr.terminals().find(p[0], p[1]);
    if (!session)
        ex->replyError(terminalNotFound(p[1]));
    return session;
}

// A route on one terminal with a JSON body: the body's error answered first, then the
// terminal's (as sandboxAndBody does for sandboxes).
struct TerminalAndBody
{
    std::shared_ptr<sandboxes::TerminalSession> session;
    nlohmann::json body;
};
std::optional<TerminalAndBody> terminalAndBody(sandboxes::SandboxManager& mgr, const ExPtr& ex,
                                               const Params& p)
{
    auto body = parseJsonObject(ex->request());
    if (!body) {
        ex->replyError(body.error());
        return std::nullopt;
    }
    auto session = terminalOrReply(mgr, ex, p);
    if (!session)
        return std::nullopt;
    return TerminalAndBody{std::move(session), std::move(*body)};
}

void attach(ApiContext& ctx, const ExPtr& ex, const Params& p)
{
    auto session = terminalOrReply(ctx.sandboxes, ex, p);
    if (!session)
        return;
    if (!ex->isWebSocketUpgrade()) {
        auto res = http::errorResponse(
            http::bhttp::status::upgrade_required, "UPGRADE_REQUIRED",
            "attach is a WebSocket: send GET with Upgrade: websocket (RFC 6455)");
        res.set(http::bhttp::field::upgrade, "websocket");
        return ex->reply(std::move(res));
    }
    if (session->info().clients >= sandboxes::TerminalSession::kMaxClients)
        return ex->replyError(Error{ErrorKind::LimitReached, "TOO_MANY_CLIENTS",
                                    "this terminal has " +
                                        std::to_string(sandboxes::TerminalSession::kMaxClients) +
                                        " clients attached already, the most it takes"});
    const auto replay = ex->query("replay");
    const auto key = callerKey(ctx, ex);
    http::Request request = ex->request();
    auto connection = ex->takeWebSocket();
    if (!connection)
        return;
    auto attachment = std::make_shared<TerminalAttachment>(
        session, connection, !(replay && *replay == "0"), key && key->readOnly);
    // Typing is a use of the sandbox (its idle time restarts) and wakes it from a policy's
    // pause; the bytes wait in the terminal meanwhile.
    attachment->onInput([&mgr = ctx.sandboxes, id = p[0]] {
        if (mgr.idle().touch(id))
            mgr.idle().wake(id, "terminal input", [](Status) {});
    });
    attachment->start(std::move(request));
    trackByKey(ctx, ex, attachment);
}

} // namespace

void registerTerminalRoutes(Router& router, ApiContext& ctx)
{
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    router.add(verb::post, "/api/sandboxes/{}/terminals",
               [&mgr, &ctx](const ExPtr& ex, const Params& p) {
                   auto checked = sandboxAndBody(mgr, ex, p[0], SandboxNeed::Active);
                   if (!checked)
                       return;
                   auto request = parseTerminal(checked->body);
                   if (!request)
                       return ex->replyError(request.error());
                   request->createdBy = callerName(ctx, ex);
                   mgr.terminals().create(
                       p[0], checked->sandbox->handle.socketPath, std::move(*request),
                       [ex](Result<sandboxes::TerminalInfo> made) {
                           onExchange(ex, [ex, made = std::move(made)]() mutable {
                               if (!made)
                                   return ex->replyError(apiErrorFromAgent(made.error()));
                               ex->replyJson(201, terminalJson(*made));
                           });
                       });
               });
    router.add(verb::get, "/api/sandboxes/{}/terminals", [&mgr](const ExPtr& ex, const Params& p) {
        if (!sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running))
            return;
        nlohmann::json list = nlohmann::json::array();
        for (const auto& t : mgr.terminals().list(p[0]))
            list.push_back(terminalJson(t));
        ex->replyJson(200, {{"terminals", std::move(list)}});
    });
    router.add(verb::get, "/api/sandboxes/{}/terminals/{}",
               [&mgr](const ExPtr& ex, const Params& p) {
                   if (auto session = terminalOrReply(mgr, ex, p))
                       ex->replyJson(200, terminalJson(session->info()));
               });
    router.add(
        verb::patch, "/api/sandboxes/{}/terminals/{}", [&mgr](const ExPtr& ex, const Params& p) {
            auto checked = terminalAndBody(mgr, ex, p);
            if (!checked)
                return;
            auto& [session, body] = *checked;
            Fields f(body);
            auto cols = sizeField(f, "cols", 1000);
            if (!cols)
                return ex->replyError(cols.error());
            auto rows = sizeField(f, "rows", 500);
            if (!rows)
                return ex->replyError(rows.error());
            auto name = nameField(f);
            if (!name)
                return ex->replyError(name.error());
            if (cols->has_value() != rows->has_value())
                return ex->replyError(invalidArgument("fields \"cols\" and \"rows\" go together"));
            if (*cols) {
                if (Status s = session->resize(**cols, **rows); !s)
                    return ex->replyError(s.error());
            }
            if (*name)
                session->rename(**name);
            ex->replyJson(200, terminalJson(session->info()));
        });
    router.add(verb::post, "/api/sandboxes/{}/terminals/{}/signal",
               [&mgr](const ExPtr& ex, const Params& p) {
                   auto checked = terminalAndBody(mgr, ex, p);
                   if (!checked)
                       return;
                   auto& [session, body] = *checked;
                   auto sig = terminalSignal(body.value("signal", nlohmann::json()));
                   if (!sig)
                       return ex->replyError(sig.error());
                   if (Status s = session->signal(*sig); !s)
                       return ex->replyError(s.error());
                   ex->replyEmpty();
               });
    router.add(verb::delete_, "/api/sandboxes/{}/terminals/{}",
               [&mgr, &ctx](const ExPtr& ex, const Params& p) {
                   if (!sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running))
                       return;
                   if (Status s = mgr.terminals().close(p[0], p[1], callerName(ctx, ex)); !s)
                       return ex->replyError(terminalNotFound(p[1]));
                   ex->replyEmpty();
               });
    router.add(verb::get, "/api/sandboxes/{}/terminals/{}/attach",
               [&ctx](const ExPtr& ex, const Params& p) { attach(ctx, ex, p); });
}

} // namespace lizard::api
