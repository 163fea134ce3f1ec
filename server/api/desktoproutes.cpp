// Sandbox desktops: POST|GET|DELETE /api/sandboxes/{id}/desktop (the SDK's sandbox.desktop).
// The desktop itself is the sandbox's own processes, started by its `lizard-desktop` command;
// the two noVNC pages it serves are published through the port proxy like exposed ports.
#include "api/desktoproutes.h"

#include "api/agenterroranswers.h"
#include "api/jsonbody.h"
#include "common/crypto.h"
#include "proxy/proxyserver.h"
#include "sandboxes/desktopcommand.h"
#include "sandboxes/sandboxmanager.h"
#include "store/store.h"

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

// websockify with noVNC's page in the sandbox (agent/tools/desktopscripts.cpp).
constexpr int kFullPort = 6080;
constexpr int kViewPort = 6081;
constexpr int kDefaultWidth = 1280;
constexpr int kDefaultHeight = 800;

struct Access
{
    std::string url;
    std::string viewOnlyUrl;
    std::string password;
    std::string viewPassword;
};

// The VNC passwords come from the sandbox's id and the server's desktop secret, so that the
// URLs stay the same across stop and start (and a restart of lizard-local) without storing a
// password per sandbox. Not from the proxy token: both URLs carry that token, and whoever holds
// the view-only URL must not be able to work out the full-control password. VNC uses 8
// characters of a password: each is one of 62.
std::string vncPassword(const std::string& secret, const std::string& sandboxId, const char* which)
{
    static constexpr char kAlphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    const std::string digest =
        sha256Hex(std::string("lizard-desktop ") + which + "\n" + sandboxId + "\n" + secret);
    std::string out;
    for (size_t i = 0; i < 8; ++i)
        out += kAlphabet[std::stoul(digest.substr(i * 4, 4), nullptr, 16) % 62];
    return out;
}

std::string pageUrl(const proxy::ProxyServer& proxy, const proxy::Exposure& e,
                    const std::string& password)
{
    // noVNC reads these from the page's query; the proxy takes lizard_token off and keeps the
    // rest, and noVNC's WebSocket carries the proxy's cookie.
    return "http://" + proxy.hostname(e) + "/vnc.html?lizard_token=" + e.token +
           "&autoconnect=true&resize=scale&reconnect=true&password=" + password;
}

Result<Access> publish(ApiContext& ctx, const std::string& id)
{
    if (ctx.proxy == nullptr)
        return Error{ErrorKind::Unavailable, "PROXY_UNAVAILABLE", "the port proxy is not running"};
    auto full = ctx.proxy->expose(id, kFullPort);
    if (!full)
        return full.error();
    auto view = ctx.proxy->expose(id, kViewPort);
    if (!view)
        return view.error();
    Access a;
    a.password = vncPassword(ctx.desktopSecret, id, "full");
    a.viewPassword = vncPassword(ctx.desktopSecret, id, "view");
    a.url = pageUrl(*ctx.proxy, *full, a.password);
    a.viewOnlyUrl = pageUrl(*ctx.proxy, *view, a.viewPassword);
    return a;
}

// A live sandbox of the desktop template.
Result<store::SandboxPtr> desktopSandbox(ApiContext& ctx, const std::string& id)
{
    auto sb = ctx.sandboxes.active(id);
    if (!sb)
        return sb.error();
    if ((*sb)->templateName != "desktop")
        return Error{ErrorKind::InvalidArgument, "DESKTOP_NOT_SUPPORTED",
                     "sandbox " + id + " runs the " + (*sb)->templateName +
                         " template; a desktop needs a sandbox of the desktop template"};
    return sb;
}

nlohmann::json infoJson(const sandboxes::DesktopState& s, const Access& a)
{
    return {{"running", s.running},
            {"width", s.width > 0 ? nlohmann::json(s.width) : nlohmann::json()},
            {"height", s.height > 0 ? nlohmann::json(s.height) : nlohmann::json()},
            {"url", a.url},
            {"viewOnlyUrl", a.viewOnlyUrl}};
}

Error commandFailed(const char* what, const sandboxes::DesktopCommandResult& r)
{
    const std::string& text = r.err.empty() ? r.out : r.err;
    return Error{ErrorKind::Internal, "DESKTOP_FAILED",
                 std::string(what) + " failed (exit " + std::to_string(r.exitCode) +
                     "): " + text.substr(text.size() > 1000 ? text.size() - 1000 : 0)};
}

// width and height: both or neither, within the SDK's bounds.
Result<std::pair<int, int>> screenSize(const nlohmann::json& body)
{
    Fields f(body);
    auto w = f.optInt("width");
    if (!w)
        return w.error();
    auto h = f.optInt("height");
    if (!h)
        return h.error();
    if (w->has_value() != h->has_value())
        return invalidArgument("width and height go together (or neither, for 1280x800)");
    if (!w->has_value())
        return std::pair{kDefaultWidth, kDefaultHeight};
    if (**w < 640 || **w > 3840 || **h < 480 || **h > 2160)
        return invalidArgument("the screen must be 640-3840 pixels wide and 480-2160 high, not " +
                               std::to_string(**w) + "x" + std::to_string(**h));
    return std::pair{int(**w), int(**h)};
}

// Runs `lizard-desktop <args>` and answers with the state it printed.
void answerState(const ExPtr& ex, const store::SandboxPtr& sb, const Access& access,
                 std::vector<std::string> args, std::map<std::string, std::string> env,
                 const char* what)
{
    sandboxes::runDesktopCommand(ex->executor(), sb->handle.socketPath, std::move(args),
                                 std::move(env),
                                 [ex, access, what](Result<sandboxes::DesktopCommandResult> r) {
                                     if (!r)
                                         return ex->replyError(apiErrorFromAgent(r.error()));
                                     if (r->exitCode != 0)
                                         return ex->replyError(commandFailed(what, *r));
                                     auto state = sandboxes::parseDesktopState(r->out);
                                     if (!state)
                                         return ex->replyError(state.error());
                                     ex->replyJson(200, infoJson(*state, access));
                                 });
}

} // namespace

void registerDesktopRoutes(Router& router, ApiContext& ctx)
{
    router.add(verb::post, "/api/sandboxes/{}/desktop", [&ctx](const ExPtr& ex, const Params& p) {
        auto sb = desktopSandbox(ctx, p[0]);
        if (!sb)
            return ex->replyError(sb.error());
        auto body = parseJsonObject(ex->request());
        if (!body)
            return ex->replyError(body.error());
        auto size = screenSize(*body);
        if (!size)
            return ex->replyError(size.error());
        auto access = publish(ctx, p[0]);
        if (!access)
            return ex->replyError(access.error());
        // A running desktop keeps its size: the command answers with its state.
        answerState(ex, *sb, *access,
                    {"start", std::to_string(size->first), std::to_string(size->second)},
                    {{"LIZARD_DESKTOP_PASSWORD", access->password},
                     {"LIZARD_DESKTOP_VIEW_PASSWORD", access->viewPassword}},
                    "starting the desktop");
    });
    router.add(verb::get, "/api/sandboxes/{}/desktop", [&ctx](const ExPtr& ex, const Params& p) {
        auto sb = desktopSandbox(ctx, p[0]);
        if (!sb)
            return ex->replyError(sb.error());
        auto access = publish(ctx, p[0]);
        if (!access)
            return ex->replyError(access.error());
        answerState(ex, *sb, *access, {"status"}, {}, "reading the desktop's state");
    });
    router.add(verb::delete_, "/api/sandboxes/{}/desktop",
               [&ctx](const ExPtr& ex, const Params& p) {
                   auto sb = desktopSandbox(ctx, p[0]);
                   if (!sb)
                       return ex->replyError(sb.error());
                   sandboxes::runDesktopCommand(
                       ex->executor(), (*sb)->handle.socketPath, {"stop"}, {},
                       [ex](Result<sandboxes::DesktopCommandResult> r) {
                           if (!r)
                               return ex->replyError(apiErrorFromAgent(r.error()));
                           if (r->exitCode != 0)
                               return ex->replyError(commandFailed("stopping the desktop", *r));
                           ex->replyEmpty();
                       });
               });
}

} // namespace lizard::api
