// GET /api/sandboxes/{id}/activity?since=SEQ&limit=N, a lizard-local extension (see
// DECISIONS.md "Activity log"): the sandbox's activity entries after SEQ as JSON, or with
// Accept: text/event-stream those and then every new one as it is recorded.
#include "api/eventstream.h"
#include "api/jsonbody.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "api/streamwriter.h"
#include "sandboxes/activitylog.h"
#include "sandboxes/sandboxmanager.h"

#include <charconv>

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

constexpr size_t kDefaultLimit = 1000;
constexpr size_t kMaxLimit = 10000;
constexpr size_t kFollowerBacklogBytes = 64u << 20; // a follower further behind is cut off

Result<uint64_t> uintQuery(const ExPtr& ex, const char* name, uint64_t fallback, uint64_t min,
                           uint64_t max)
{
    auto v = ex->query(name);
    if (!v)
        return fallback;
    uint64_t out = 0;
    const auto [ptr, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (v->empty() || ec != std::errc() || ptr != v->data() + v->size() || out < min || out > max)
        return invalidArgument("query parameter \"" + std::string(name) +
                               "\" must be an integer from " + std::to_string(min) + " to " +
                               std::to_string(max));
    return out;
}

std::string sseEntry(const std::string& line, uint64_t seq)
{
    return "id: " + std::to_string(seq) + "\ndata: " + line + "\n\n";
}

// One live follower: the backlog first, then each new entry, in seq order, on the exchange's
// executor. Entries recorded while the backlog is read wait in m_early.
class ActivityFollower : public EventStream
{
public:
    ActivityFollower(ExPtr ex, sandboxes::ActivityLog& log, std::string id, uint64_t since)
        : EventStream(std::move(ex)), m_log(log), m_id(std::move(id)), m_lastSeq(since)
    {
    }

    void start(sandboxes::SandboxManager& mgr)
    {
        std::weak_ptr<ActivityFollower> weak = selfAs<ActivityFollower>();
        m_token = m_log.follow(
            m_id, [weak, ex = m_ex](std::shared_ptr<const std::string> line, uint64_t seq) {
                onExchange(ex, [weak, line = std::move(line), seq] {
                    if (auto s = weak.lock())
                        s->live(line, seq);
                });
            });
        cancelOnHangUp();
        m_writer->begin(200, "text/event-stream", std::nullopt);
        // Reading up to 64 MiB from disk is worker work, not the connection's.
        auto self = selfAs<ActivityFollower>();
        mgr.runOnWorker([self] {
            auto lines = self->m_log.read(self->m_id, self->m_lastSeq, SIZE_MAX);
            onExchange(self->m_ex, [self, lines = std::move(lines)] { self->backlog(lines); });
        });
    }

    ~ActivityFollower() { m_log.unfollow(m_id, m_token); }

private:
    void backlog(const std::vector<std::string>& lines)
    {
        for (const auto& line : lines)
            send(line, std::stoull(line.substr(7)));
        m_backlogDone = true;
        for (auto& [line, seq] : m_early)
            live(line, seq);
        m_early.clear();
    }

    void cancel() override { stop(); }

    void live(const std::shared_ptr<const std::string>& line, uint64_t seq)
    {
        if (m_finished)
            return;
        if (!m_backlogDone) {
            m_early.emplace_back(line, seq);
            return;
        }
        if (!line) { // the sandbox was killed: nothing more will come
            m_writer->end();
            return stop();
        }
        send(*line, seq);
    }

    void send(const std::string& line, uint64_t seq)
    {
        if (seq <= m_lastSeq || m_finished)
            return;
        m_lastSeq = seq;
        if (!writeWithin(sseEntry(line, seq), kFollowerBacklogBytes)) {
            // The client reads slower than the sandbox acts: it reconnects with Last-Event-ID.
            stop();
            m_writer->abort();
        }
    }

    void stop()
    {
        m_finished = true;
        m_log.unfollow(m_id, m_token);
        m_keepAlive.reset(); // the follower ends with the exchange's last reference
    }

public:
    std::shared_ptr<ActivityFollower> m_keepAlive; // until the client goes or the stream ends

private:
    sandboxes::ActivityLog& m_log;
    std::string m_id;
    uint64_t m_lastSeq;
    uint64_t m_token = 0;
    bool m_backlogDone = false;
    std::vector<std::pair<std::shared_ptr<const std::string>, uint64_t>> m_early;
};

} // namespace

void registerActivityRoutes(Router& router, ApiContext& ctx)
{
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    router.add(verb::get, "/api/sandboxes/{}/activity", [&mgr](const ExPtr& ex, const Params& p) {
        if (!sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running))
            return;
        sandboxes::ActivityLog* log = mgr.activity();
        if (log == nullptr)
            return ex->replyError(Error{ErrorKind::NotImplemented, "ACTIVITY_DISABLED",
                                        "this lizard-local records no activity (--no-activity)"});
        uint64_t fromHeader = 0;
        if (const auto it = ex->request().find("Last-Event-ID"); it != ex->request().end())
            std::from_chars(it->value().data(), it->value().data() + it->value().size(),
                            fromHeader);
        auto since = uintQuery(ex, "since", fromHeader, 0, UINT64_MAX);
        if (!since)
            return ex->replyError(since.error());
        auto limit = uintQuery(ex, "limit", kDefaultLimit, 1, kMaxLimit);
        if (!limit)
            return ex->replyError(limit.error());
        if (ex->wantsEventStream()) {
            auto follower = std::make_shared<ActivityFollower>(ex, *log, p[0], *since);
            follower->m_keepAlive = follower;
            return follower->start(mgr);
        }
        mgr.runOnWorker([ex, log, id = p[0], since = *since, limit = *limit] {
            const auto lines = log->read(id, since, limit);
            std::string body = "{\"entries\":[";
            for (size_t i = 0; i < lines.size(); ++i) {
                if (i > 0)
                    body += ',';
                body += lines[i];
            }
            const uint64_t last = lines.empty() ? since : std::stoull(lines.back().substr(7));
            body += "],\"lastSeq\":" + std::to_string(last) +
                    ",\"more\":" + (lines.size() == limit ? "true" : "false") + "}";
            onExchange(ex, [ex, body = std::move(body)]() mutable {
                auto writer = std::make_shared<StreamWriter>(ex);
                const uint64_t size = body.size();
                writer->begin(200, "application/json", size);
                writer->write(std::move(body));
                writer->end();
            });
        });
    });
}

} // namespace lizard::api
