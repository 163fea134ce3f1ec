// What a sandbox changed against its template (local extensions; DECISIONS.md, "Changes"):
//   GET /api/sandboxes/{id}/changes[?exclude=p1,p2&limit=N&against=snap_…|sb_…]
//       {"sandboxID", "against": "template"|"snapshot"|"sandbox", "againstId"?, "template",
//        "truncated", "count", "changes": [{"path", "kind": added|modified|deleted,
//        "type": file|dir|symlink|other, "size", "mode", "mtimeNs"?, "was"?}],
//        "notCompared": [{"path", "reason"}]}
//   (against another sandbox or a snapshot of the same template: changescompare.h)
//   GET /api/sandboxes/{id}/changes/original?path=P[&against=snap_…|sb_…]   the template's
//       version of a file (or the snapshot's, or the other sandbox's, as its layers show it)
//   GET /api/sandboxes/{id}/changes/archive[?exclude=…&format=tar]   the changes as a tar in
//       the form of an image layer (deleted paths as ".wh.<name>" files), streamed
// All read the sandbox's layers on the host: a paused sandbox answers too.
#include "api/changearchive.h"
#include "api/changescompare.h"
#include "api/filerequest.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "http/responses.h"
#include "sandboxes/sandboxmanager.h"
#include "sandboxes/snapshotservice.h"

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

nlohmann::json notComparedJson(bool volume)
{
    nlohmann::json notCompared = nlohmann::json::array();
    if (volume)
        notCompared.push_back({{"path", "/workspace"},
                               {"reason", "a volume: its files outlive the sandbox and are not "
                                          "part of its layer"}});
    notCompared.push_back(
        {{"path", "/dev/shm"}, {"reason", "memory, not files: gone when the sandbox ends"}});
    return notCompared;
}

// The listing with what it cannot see, around the list the walk encoded (not parsed again:
// it is most of the answer).
std::string changesBody(const store::SandboxRecord& sb, const runtime::ChangesListing& listed,
                        bool volume)
{
    const nlohmann::json head{
        {"sandboxID", sb.id},          {"against", "template"},
        {"template", sb.templateName}, {"truncated", listed.truncated},
        {"count", listed.count},       {"notCompared", notComparedJson(volume)}};
    std::string body = head.dump();
    body.pop_back(); // the closing brace
    body.reserve(body.size() + listed.changesJson.size() + 16);
    body += ",\"changes\":";
    body += listed.changesJson;
    body += '}';
    return body;
}

// What `against` names: another sandbox (running or paused) or a ready snapshot, of the same
// template as `sb`. The reference's files copy ("" for a sandbox) in `filesCopy`, its sandbox in
// `sandboxId`.
struct Reference
{
    std::string kind; // "sandbox" | "snapshot"
    std::string id;
    std::string sandboxId; // whose listing is asked for (a snapshot's: the sandbox's own id)
    std::string filesCopy;
};

Result<Reference> referenceOf(ApiContext& ctx, const store::SandboxRecord& sb,
                              const std::string& against)
{
    Reference r;
    r.id = against;
    std::string templateName;
    if (against.rfind("snap_", 0) == 0) {
        const auto snap = ctx.store.snapshot(against);
        if (!snap)
            return Error{ErrorKind::NotFound, "NOT_FOUND", "snapshot " + against + " not found"};
        if (snap->status != "ready")
            return Error{ErrorKind::Conflict, "SNAPSHOT_NOT_READY",
                         "snapshot " + against + " is " + snap->status};
        r.kind = "snapshot";
        r.sandboxId = sb.id;
        r.filesCopy = against;
        templateName = snap->templateName;
    } else if (against.rfind("sb_", 0) == 0) {
        const auto other = ctx.sandboxes.running(against);
        if (!other)
            return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + against + " not found"};
        r.kind = "sandbox";
        r.sandboxId = against;
        templateName = other->templateName;
    } else {
        return invalidArgument("query parameter \"against\" must be \"template\", a snapshot id "
                               "(snap_…) or a sandbox id (sb_…)");
    }
    if (templateName != sb.templateName)
        return Error{ErrorKind::Conflict, "NOT_COMPARABLE",
                     against + " is of template " + templateName + " and " + sb.id + " of " +
                         sb.templateName + ": only file systems of one template compare"};
    return r;
}

// What `against` names, if anything but the template; a snapshot is held (acquired) until the
// caller releases it, so that it is not deleted while its files are read.
Result<std::optional<Reference>> heldReference(ApiContext& ctx, const store::SandboxRecord& sb,
                                               const std::optional<std::string>& against)
{
    if (!against || against->empty() || *against == "template")
        return std::optional<Reference>();
    auto r = referenceOf(ctx, sb, *against);
    if (!r)
        return r.error();
    if (r->kind == "snapshot") {
        if (auto held = ctx.sandboxes.snapshots().acquire(r->id); !held)
            return held.error();
    }
    return std::optional<Reference>(std::move(*r));
}

// The comparison's answer (both lists parsed: the comparison needs them).
Result<std::string> comparedBody(sandboxes::SandboxManager& mgr, const store::SandboxRecord& sb,
                                 const runtime::ChangesQuery& q, const Reference& ref, bool volume)
{
    auto mine = mgr.changes(sb.id, q);
    if (!mine)
        return mine.error();
    runtime::ChangesQuery theirsQuery = q;
    theirsQuery.filesCopy = ref.filesCopy;
    auto theirs = mgr.changes(ref.sandboxId, theirsQuery);
    if (!theirs)
        return theirs.error();
    const auto a = nlohmann::json::parse(mine->changesJson, nullptr, false);
    const auto b = nlohmann::json::parse(theirs->changesJson, nullptr, false);
    if (!a.is_array() || !b.is_array())
        return Error{ErrorKind::Internal, "CHANGES_FAILED", "a listing could not be read"};
    nlohmann::json changes = compareChanges(a, b);
    const nlohmann::json out{{"sandboxID", sb.id},
                             {"against", ref.kind},
                             {"againstId", ref.id},
                             {"template", sb.templateName},
                             {"truncated", mine->truncated || theirs->truncated},
                             {"count", changes.size()},
                             {"changes", std::move(changes)},
                             {"notCompared", notComparedJson(volume)}};
    return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

http::StringResponse bytesResponse(Result<std::string> data)
{
    if (!data)
        return http::errorResponse(data.error());
    http::StringResponse res;
    res.result(http::bhttp::status::ok);
    res.set(http::bhttp::field::content_type, "application/octet-stream");
    res.body() = std::move(*data);
    res.prepare_payload();
    return res;
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
            auto ref = heldReference(ctx, *sb, ex->query("against"));
            if (!ref)
                return ex->replyError(ref.error());
            mgr.runOnWorker([ex, &mgr, sb, q = std::move(*query), volume, ref = *ref] {
                Result<std::string> body = std::string();
                if (ref) {
                    body = comparedBody(mgr, *sb, q, *ref, volume);
                    if (ref->kind == "snapshot")
                        mgr.snapshots().release(ref->id);
                } else if (auto listed = mgr.changes(sb->id, q)) {
                    body = changesBody(*sb, *listed, volume);
                } else {
                    body = listed.error();
                }
                http::StringResponse res;
                if (body) {
                    res.result(http::bhttp::status::ok);
                    res.set(http::bhttp::field::content_type, "application/json");
                    res.body() = std::move(*body);
                    res.prepare_payload();
                } else {
                    res = http::errorResponse(body.error());
                }
                onExchange(ex, [ex, res = std::move(res)]() mutable { ex->reply(std::move(res)); });
            });
        });
    router.add(
        verb::get, "/api/sandboxes/{}/changes/original",
        [&mgr, &ctx](const ExPtr& ex, const Params& p) {
            const auto sb = sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running);
            if (!sb)
                return;
            const auto path = ex->query("path");
            if (!path)
                return ex->replyError(invalidArgument("query parameter \"path\" is required"));
            if (Status s = checkPath(*path, "path"); !s)
                return ex->replyError(s.error());
            auto ref = heldReference(ctx, *sb, ex->query("against"));
            if (!ref)
                return ex->replyError(ref.error());
            mgr.runOnWorker(
                [ex, &mgr, desktop = sb->templateName == "desktop", path = *path, ref = *ref] {
                    Result<std::string> data = std::string();
                    if (ref) {
                        runtime::ChangesQuery q;
                        q.desktop = desktop;
                        q.filesCopy = ref->filesCopy;
                        data = mgr.layeredFile(ref->sandboxId, q, path, kMaxOriginalBytes);
                        if (ref->kind == "snapshot")
                            mgr.snapshots().release(ref->id);
                    } else {
                        data = mgr.templateFile(desktop, path, kMaxOriginalBytes);
                    }
                    onExchange(ex, [ex, res = bytesResponse(std::move(data))]() mutable {
                        ex->reply(std::move(res));
                    });
                });
        });
    router.add(verb::get, "/api/sandboxes/{}/changes/archive",
               [&mgr](const ExPtr& ex, const Params& p) {
                   const auto sb = sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running);
                   if (!sb)
                       return;
                   if (const auto format = ex->query("format"); format && *format != "tar")
                       return ex->replyError(invalidArgument(
                           "query parameter \"format\" must be \"tar\" (a patch is made from each "
                           "file's two versions: …/changes/original and the sandbox's file)"));
                   if (const auto against = ex->query("against");
                       against && !against->empty() && *against != "template")
                       return ex->replyError(invalidArgument(
                           "an archive holds the sandbox's own changes, against its template"));
                   auto query = changesQuery(ex);
                   if (!query)
                       return ex->replyError(query.error());
                   query->desktop = sb->templateName == "desktop";
                   auto tool = mgr.changesArchive(sb->id, *query);
                   if (!tool)
                       return ex->replyError(tool.error());
                   streamToolOutput(ex, *tool, "application/x-tar");
               });
}

} // namespace lizard::api
