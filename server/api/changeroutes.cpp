// What a sandbox changed against its template (local extensions; DECISIONS.md, "Changes"):
//   GET /api/sandboxes/{id}/changes[?exclude=p1,p2&limit=N]
//       {"sandboxID", "against": "template", "template", "truncated", "count", "changes":
//        [{"path", "kind": added|modified|deleted, "type": file|dir|symlink|other, "size",
//          "mode", "was"?}], "notCompared": [{"path", "reason"}]}
//   GET /api/sandboxes/{id}/changes/original?path=P   the template's version of a file
// Both read the sandbox's layers on the host: a paused sandbox answers too.
#include "api/filerequest.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "http/responses.h"
#include "sandboxes/sandboxmanager.h"

#include <charconv>

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

constexpr std::size_t kDefaultLimit = 200000;
constexpr std::size_t kMaxLimit = 1000000;
constexpr std::size_t kMaxPatterns = 64;
constexpr std::size_t kMaxPatternLength = 256;
// The original of a file is for showing beside the sandbox's version: a diff, not a download.
constexpr std::size_t kMaxOriginalBytes = 16u << 20;

Result<runtime::ChangesQuery> changesQuery(const ExPtr& ex)
{
    runtime::ChangesQuery q;
    q.limit = kDefaultLimit;
    if (const auto v = ex->query("limit"); v && !v->empty()) {
        std::size_t n = 0;
        const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
        if (ec != std::errc() || end != v->data() + v->size() || n < 1 || n > kMaxLimit)
            return invalidArgument("query parameter \"limit\" must be 1.." +
                                   std::to_string(kMaxLimit));
        q.limit = n;
    }
    if (const auto v = ex->query("exclude"); v && !v->empty()) {
        std::size_t from = 0;
        while (from <= v->size()) {
            const std::size_t comma = std::min(v->find(',', from), v->size());
            const std::string pattern = v->substr(from, comma - from);
            from = comma + 1;
            if (pattern.empty())
                continue;
            if (pattern.size() > kMaxPatternLength || q.exclude.size() == kMaxPatterns)
                return invalidArgument("query parameter \"exclude\" takes at most " +
                                       std::to_string(kMaxPatterns) + " patterns of at most " +
                                       std::to_string(kMaxPatternLength) + " characters");
            q.exclude.push_back(pattern);
        }
    }
    return q;
}

// The listing with what it cannot see, around the list the walk encoded (not parsed again:
// it is most of the answer).
std::string changesBody(const store::SandboxRecord& sb, const runtime::ChangesListing& listed,
                        bool volume)
{
    nlohmann::json notCompared = nlohmann::json::array();
    if (volume)
        notCompared.push_back({{"path", "/workspace"},
                               {"reason", "a volume: its files outlive the sandbox and are not "
                                          "part of its layer"}});
    notCompared.push_back(
        {{"path", "/dev/shm"}, {"reason", "memory, not files: gone when the sandbox ends"}});
    const nlohmann::json head{
        {"sandboxID", sb.id},          {"against", "template"},
        {"template", sb.templateName}, {"truncated", listed.truncated},
        {"count", listed.count},       {"notCompared", std::move(notCompared)}};
    std::string body = head.dump();
    body.pop_back(); // the closing brace
    body.reserve(body.size() + listed.changesJson.size() + 16);
    body += ",\"changes\":";
    body += listed.changesJson;
    body += '}';
    return body;
}

} // namespace

void registerChangeRoutes(Router& router, ApiContext& ctx)
{
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    router.add(
        verb::get, "/api/sandboxes/{}/changes", [&mgr, &ctx](const ExPtr& ex, const Params& p) {
            const auto sb = sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running);
            if (!sb)
                return;
            auto query = changesQuery(ex);
            if (!query)
                return ex->replyError(query.error());
            query->desktop = sb->templateName == "desktop";
            const bool volume = ctx.store.volumeOf(sb->id).has_value();
            mgr.runOnWorker([ex, &mgr, sb, q = std::move(*query), volume] {
                auto listed = mgr.changes(sb->id, q);
                http::StringResponse res;
                if (listed) {
                    res.result(http::bhttp::status::ok);
                    res.set(http::bhttp::field::content_type, "application/json");
                    res.body() = changesBody(*sb, *listed, volume);
                    res.prepare_payload();
                } else {
                    res = http::errorResponse(listed.error());
                }
                onExchange(ex, [ex, res = std::move(res)]() mutable { ex->reply(std::move(res)); });
            });
        });
    router.add(
        verb::get, "/api/sandboxes/{}/changes/original", [&mgr](const ExPtr& ex, const Params& p) {
            const auto sb = sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running);
            if (!sb)
                return;
            const auto path = ex->query("path");
            if (!path)
                return ex->replyError(invalidArgument("query parameter \"path\" is required"));
            if (Status s = checkPath(*path, "path"); !s)
                return ex->replyError(s.error());
            mgr.runOnWorker([ex, &mgr, desktop = sb->templateName == "desktop", path = *path] {
                auto data = mgr.templateFile(desktop, path, kMaxOriginalBytes);
                http::StringResponse res;
                if (data) {
                    res.result(http::bhttp::status::ok);
                    res.set(http::bhttp::field::content_type, "application/octet-stream");
                    res.body() = std::move(*data);
                    res.prepare_payload();
                } else {
                    res = http::errorResponse(data.error());
                }
                onExchange(ex, [ex, res = std::move(res)]() mutable { ex->reply(std::move(res)); });
            });
        });
}

} // namespace lizard::api
