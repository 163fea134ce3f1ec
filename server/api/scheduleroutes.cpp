#include "api/scheduleroutes.h"

#include "api/jsonbody.h"
#include "api/sandboxlookup.h"
#include "api/schedulerequest.h"
#include "api/scheduleviews.h"
#include "sandboxes/sandboxmanager.h"
#include "sandboxes/schedules/scheduler.h"

#include <charconv>

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

constexpr int kDefaultScheduleRuns = 20;
constexpr int kMaxScheduleRuns = 100;

void replySchedule(const ExPtr& ex, Result<sandboxes::ScheduleState> r,
                   const sandboxes::ScheduleLimits& limits)
{
    if (r)
        return ex->replyJson(200, scheduleJson(*r));
    if (r.error().code == "LIMIT_EXCEEDED")
        return ex->replyError(r.error(), {{"limit", limits.maxPerSandbox}, {"unit", "schedules"}});
    ex->replyError(r.error());
}

nlohmann::json scheduleListJson(const std::vector<sandboxes::ScheduleState>& schedules)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& s : schedules)
        out.push_back(scheduleJson(s));
    return {{"schedules", std::move(out)}};
}

// ?limit=N (1..kMaxScheduleRuns), kDefaultScheduleRuns without it.
Result<int> scheduleRunsLimit(const ExPtr& ex)
{
    const auto v = ex->query("limit");
    if (!v)
        return kDefaultScheduleRuns;
    int out = 0;
    const auto [ptr, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (v->empty() || ec != std::errc() || ptr != v->data() + v->size() || out < 1 ||
        out > kMaxScheduleRuns)
        return invalidArgument("query parameter \"limit\" must be an integer from 1 to " +
                               std::to_string(kMaxScheduleRuns));
    return out;
}

} // namespace

void registerScheduleRoutes(Router& router, ApiContext& ctx, sandboxes::Scheduler& scheduler)
{
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    sandboxes::Scheduler& sch = scheduler;
    router.add(verb::post, "/api/sandboxes/{}/schedules",
               [&mgr, &sch](const ExPtr& ex, const Params& p) {
                   auto checked = sandboxAndBody(mgr, ex, p[0], SandboxNeed::Running);
                   if (!checked)
                       return;
                   auto settings = parseScheduleSettings(checked->body);
                   if (!settings)
                       return ex->replyError(settings.error());
                   replySchedule(ex, sch.create(p[0], *settings), sch.limits());
               });
    router.add(verb::get, "/api/sandboxes/{}/schedules",
               [&mgr, &sch](const ExPtr& ex, const Params& p) {
                   if (!sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running))
                       return;
                   ex->replyJson(200, scheduleListJson(sch.list(p[0])));
               });
    router.add(verb::get, "/api/sandbox-schedules", [&sch](const ExPtr& ex, const Params&) {
        const auto sandboxId = ex->query("sandboxId");
        ex->replyJson(200, scheduleListJson(sch.list(sandboxId.value_or(""))));
    });
    router.add(verb::get, "/api/sandbox-schedules/{}", [&sch](const ExPtr& ex, const Params& p) {
        replySchedule(ex, sch.get(p[0]), sch.limits());
    });
    router.add(verb::patch, "/api/sandbox-schedules/{}", [&sch](const ExPtr& ex, const Params& p) {
        auto body = parseJsonObject(ex->request());
        if (!body)
            return ex->replyError(body.error());
        auto settings = parseScheduleSettings(*body);
        if (!settings)
            return ex->replyError(settings.error());
        replySchedule(ex, sch.update(p[0], *settings), sch.limits());
    });
    router.add(verb::delete_, "/api/sandbox-schedules/{}",
               [&sch](const ExPtr& ex, const Params& p) {
                   if (Status s = sch.remove(p[0]); !s)
                       return ex->replyError(s.error());
                   ex->replyEmpty();
               });
    router.add(verb::post, "/api/sandbox-schedules/{}/run",
               [&sch](const ExPtr& ex, const Params& p) {
                   replySchedule(ex, sch.runNow(p[0]), sch.limits());
               });
    router.add(verb::get, "/api/sandbox-schedules/{}/runs",
               [&sch](const ExPtr& ex, const Params& p) {
                   auto limit = scheduleRunsLimit(ex);
                   if (!limit)
                       return ex->replyError(limit.error());
                   auto runs = sch.runs(p[0], *limit);
                   if (!runs)
                       return ex->replyError(runs.error());
                   nlohmann::json out = nlohmann::json::array();
                   for (const auto& r : *runs)
                       out.push_back(scheduleRunJson(r));
                   ex->replyJson(200, {{"runs", std::move(out)}});
               });
}

} // namespace lizard::api
