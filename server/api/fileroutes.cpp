// Files inside a sandbox. Every path is resolved by the agent inside the sandbox; here we
// only check that it is absolute.
#include "api/agenterroranswers.h"
#include "api/filerequest.h"
#include "api/jsonbody.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "api/streamwriter.h"
#include "api/views.h"
#include "common/base64.h"
#include "runtime/agentclient.h"
#include "sandboxes/activitylog.h"
#include "sandboxes/sandboxmanager.h"

#include <functional>

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

// The query parameter `name` as an absolute path.
Result<std::string> queryPath(const ExPtr& ex, const std::string& name)
{
    auto v = ex->query(name);
    if (!v)
        return invalidArgument("query parameter \"" + name + "\" is required");
    if (Status s = checkPath(*v, name); !s)
        return s.error();
    return *v;
}

using AgentPtr = std::shared_ptr<runtime::AgentClient>;

// Runs `handler` with the sandbox's agent, or answers 404 (409 SANDBOX_PAUSED while paused).
template <class Fn>
void withAgent(sandboxes::SandboxManager& mgr, const ExPtr& ex, const std::string& id, Fn&& handler)
{
    if (const auto sb = sandboxOrReply(mgr, ex, id, SandboxNeed::Active))
        handler(std::make_shared<runtime::AgentClient>(ex->executor(), sb->handle.socketPath));
}

// GET list and stat: the path from the query, one agent op on it.
void askAboutPath(sandboxes::SandboxManager& mgr, const ExPtr& ex, const std::string& id,
                  const char* op, std::function<void(const nlohmann::json&)> onOk)
{
    if (!sandboxOrReply(mgr, ex, id, SandboxNeed::Running))
        return;
    auto path = queryPath(ex, "path");
    if (!path)
        return ex->replyError(path.error());
    askAgent(mgr, ex, id, {{"op", op}, {"path", *path}}, std::move(onOk));
}

void readFile(const ExPtr& ex, const AgentPtr& agent, const std::string& path,
              const std::string& user)
{
    auto writer = std::make_shared<StreamWriter>(ex);
    auto expected = std::make_shared<uint64_t>(0);
    auto sent = std::make_shared<uint64_t>(0);
    auto cancel = agent->readFile(
        path, user,
        [writer, expected](uint64_t size) {
            *expected = size;
            writer->begin(200, "application/octet-stream", size);
        },
        [writer, expected, sent](std::string_view data, std::function<void()> resume) {
            if (*sent + data.size() > *expected)
                return writer->abort(); // the file grew while read: never send more than announced
            *sent += data.size();
            writer->write(std::string(data), std::move(resume));
        },
        [ex, agent, writer, expected, sent](Status st) {
            writer->onFailure(nullptr); // drops the cancel handle (and the cycle through it)
            if (!writer->begun())
                return st ? ex->replyError(
                                Error{ErrorKind::Internal, "INTERNAL", "the agent sent no file"})
                          : ex->replyError(apiErrorFromAgent(st.error()));
            if (!st || *sent != *expected)
                return writer->abort(); // cut: the client sees a short body, not a wrong one
            writer->end();
        });
    writer->onFailure([cancel] { cancel->cancel(); });
}

} // namespace

void registerFileRoutes(Router& router, ApiContext& ctx)
{
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    router.add(verb::post, "/api/sandboxes/{}/files", [&mgr](const ExPtr& ex, const Params& p) {
        auto checked = sandboxAndBody(mgr, ex, p[0], SandboxNeed::Running);
        if (!checked)
            return;
        Fields f(checked->body);
        auto path = bodyPath(f, "path");
        if (!path)
            return ex->replyError(path.error());
        auto content = f.optString("content");
        if (!content)
            return ex->replyError(content.error());
        if (!*content)
            return ex->replyError(invalidArgument("field \"content\" is required (a string)"));
        auto encoding = f.optString("encoding");
        if (!encoding)
            return ex->replyError(encoding.error());
        std::string bytes;
        const std::string enc = encoding->value_or("utf-8");
        if (enc == "base64") {
            auto decoded = base64Decode(**content);
            if (!decoded)
                return ex->replyError(invalidArgument("field \"content\" is not valid base64"));
            bytes = std::move(*decoded);
        } else if (enc == "utf-8" || enc == "utf8" || enc == "text") {
            bytes = std::move(**content);
        } else {
            return ex->replyError(invalidArgument(
                "field \"encoding\" must be \"base64\" or \"utf-8\", got \"" + enc + "\""));
        }
        auto user = f.optString("user");
        if (!user)
            return ex->replyError(user.error());
        auto u = fileUser(*user);
        if (!u)
            return ex->replyError(u.error());
        if (Status room = mgr.checkStorage(bytes.size()); !room)
            return ex->replyError(room.error());
        withAgent(mgr, ex, p[0], [&](const AgentPtr& agent) {
            // Path and size only: the content is the user's, and may be large or secret.
            nlohmann::json entry = {{"path", *path}, {"size", bytes.size()}};
            // A request for a serve-mode code runner is its transport, not the user's file: a
            // run is noted before the runner can see the file and recorded as a runCode entry
            // (serveruns.h); the write itself is not recorded.
            sandboxes::ActivityLog* log = mgr.activity();
            const bool request = sandboxes::RunnerRequests::isRequestPath(*path);
            const bool run =
                request && log != nullptr && log->runnerRequests().note(p[0], *path, bytes);
            agent->writeFile(*path, *u, std::move(bytes),
                             [ex, agent, &mgr, id = p[0], entry, request, run, log](Status st) {
                                 if (!st) {
                                     if (run)
                                         log->runnerRequests().forget(
                                             id, entry.at("path").get<std::string>());
                                     return ex->replyError(apiErrorFromAgent(st.error()));
                                 }
                                 if (!request)
                                     mgr.recordActivity(id, "fileWrite", entry);
                                 ex->replyEmpty();
                             });
        });
    });
    router.add(verb::get, "/api/sandboxes/{}/files", [&mgr](const ExPtr& ex, const Params& p) {
        if (!sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running))
            return;
        auto path = queryPath(ex, "path");
        if (!path)
            return ex->replyError(path.error());
        auto user = fileUser(ex->query("user"));
        if (!user)
            return ex->replyError(user.error());
        withAgent(mgr, ex, p[0], [&](const AgentPtr& agent) { readFile(ex, agent, *path, *user); });
    });
    router.add(verb::delete_, "/api/sandboxes/{}/files", [&mgr](const ExPtr& ex, const Params& p) {
        auto checked = sandboxAndBody(mgr, ex, p[0], SandboxNeed::Running);
        if (!checked)
            return;
        const nlohmann::json& body = checked->body;
        nlohmann::json req = {{"op", "remove"}};
        if (auto path =
                body.contains("path") ? bodyPath(Fields(body), "path") : queryPath(ex, "path");
            !path)
            return ex->replyError(path.error());
        else
            req["path"] = *path;
        askAgent(mgr, ex, p[0], req,
                 [ex, &mgr, id = p[0], path = req["path"]](const nlohmann::json&) {
                     mgr.recordActivity(id, "fileDelete", {{"path", path}});
                     ex->replyEmpty();
                 });
    });
    router.add(verb::get, "/api/sandboxes/{}/files/list", [&mgr](const ExPtr& ex, const Params& p) {
        askAboutPath(mgr, ex, p[0], "list", [ex](const nlohmann::json& r) {
            nlohmann::json out = nlohmann::json::array();
            if (const auto it = r.find("entries"); it != r.end() && it->is_array()) {
                for (const auto& e : *it)
                    out.push_back(fileEntryJson(e));
            }
            ex->replyJson(200, out);
        });
    });
    router.add(verb::get, "/api/sandboxes/{}/files/stat", [&mgr](const ExPtr& ex, const Params& p) {
        askAboutPath(mgr, ex, p[0], "stat", [ex](const nlohmann::json& r) {
            const auto it = r.find("entry");
            if (it == r.end() || !it->is_object())
                return ex->replyError(Error{ErrorKind::Internal, "INTERNAL",
                                            "the agent answered stat without an entry"});
            ex->replyJson(200, fileEntryJson(*it));
        });
    });
    router.add(verb::post, "/api/sandboxes/{}/files/move",
               [&mgr](const ExPtr& ex, const Params& p) {
                   auto checked = sandboxAndBody(mgr, ex, p[0], SandboxNeed::Running);
                   if (!checked)
                       return;
                   Fields f(checked->body);
                   auto from = bodyPath(f, "from");
                   if (!from)
                       return ex->replyError(from.error());
                   auto to = bodyPath(f, "to");
                   if (!to)
                       return ex->replyError(to.error());
                   askAgent(mgr, ex, p[0], {{"op", "move"}, {"from", *from}, {"to", *to}},
                            [ex, &mgr, id = p[0], from = *from, to = *to](const nlohmann::json&) {
                                mgr.recordActivity(id, "fileMove", {{"from", from}, {"to", to}});
                                ex->replyEmpty();
                            });
               });
}

} // namespace lizard::api
