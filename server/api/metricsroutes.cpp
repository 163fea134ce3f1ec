// Resource metrics (a local extension, api/DECISIONS.md "Metrics"):
// GET /api/sandboxes/{id}/metrics?range=10m|1h|6h|24h (the SDK's ServiceMetrics shape, plus
// pids, disk, limits and lifecycle events; with Accept: text/event-stream it follows live) and
// GET /api/projects/{ref}/metrics (totals and each running sandbox's latest figures). GETs: a
// read-only key may read them.
#include "api/metricsjson.h"
#include "api/metricsstream.h"
#include "api/routes.h"
#include "api/sandboxlookup.h"
#include "common/timeutil.h"
#include "sandboxes/metricssampler.h"
#include "sandboxes/sandboxmanager.h"
#include "store/store.h"

#include <algorithm>
#include <cmath>

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

struct MetricsRange
{
    std::string name;
    int64_t ms;
};

// The SDK's MetricRange within the day lizard-local keeps, and "10m", the raw window (one point
// per sample). Without `range`: 1h, the SDK's default.
Result<MetricsRange> metricsQueryRange(const ExPtr& ex)
{
    static const MetricsRange kMetricsRanges[] = {{"10m", 10 * 60 * 1000},
                                                  {"1h", 3600 * 1000},
                                                  {"6h", 6 * 3600 * 1000},
                                                  {"24h", 24 * 3600 * 1000}};
    const auto v = ex->query("range");
    const std::string name = v && !v->empty() ? *v : "1h";
    for (const MetricsRange& r : kMetricsRanges)
        if (r.name == name)
            return r;
    return Error{ErrorKind::InvalidArgument, "INVALID_RANGE",
                 "query parameter \"range\" must be 10m, 1h, 6h or 24h (lizard-local keeps 24 "
                 "hours of metrics); got \"" +
                     name.substr(0, 40) + "\""};
}

std::optional<store::ProjectRecord> metricsProject(const store::Store& st, const std::string& ref)
{
    if (auto p = st.project(ref))
        return p;
    return st.projectBySlug(ref);
}

double metricsOrZero(double v)
{
    return std::isnan(v) ? 0.0 : v;
}

nlohmann::json projectMetricsJson(const store::ProjectRecord& project, ApiContext& ctx)
{
    sandboxes::MetricsSampler& sampler = *ctx.metrics;
    double totals[sandboxes::MetricPoint::kFigures] = {};
    double cpusLimit = 0;
    int64_t memoryMbLimit = 0;
    int running = 0, paused = 0;
    struct Row
    {
        double cpu, memory;
        nlohmann::json json;
    };
    std::vector<Row> rows;
    for (const auto& s : ctx.store.runningSandboxes(project.id)) {
        (s->paused() ? paused : running) += 1;
        const runtime::DiskState disk = ctx.sandboxes.disk(s->id);
        const auto latest = sampler.latest(s->id);
        nlohmann::json row = {
            {"sandboxId", s->id},
            {"status", s->status},
            {"template", s->templateName},
            {"size", s->size},
            {"metadata", s->metadata},
            {"limits", metricLimitsJson(*s, disk)},
            {"latest", latest ? metricPointJson(*latest) : nlohmann::json(nullptr)}};
        if (s->limitsEnforced) {
            cpusLimit += s->cpus;
            memoryMbLimit += s->memoryMb;
        }
        double cpu = 0, memory = 0;
        // A paused sandbox uses no CPU; its memory is still held.
        if (latest) {
            for (int i = 0; i < sandboxes::MetricPoint::kFigures; ++i)
                if (!s->paused() || sandboxes::MetricPoint::isLevel(i))
                    totals[i] += metricsOrZero(latest->figure(i));
            cpu = s->paused() ? 0 : metricsOrZero(latest->cpu);
            memory = metricsOrZero(latest->memory);
        }
        rows.push_back({cpu, memory, std::move(row)});
    }
    // The biggest users first: CPU, then memory.
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return a.cpu != b.cpu ? a.cpu > b.cpu : a.memory > b.memory;
    });
    sandboxes::MetricPoint sum;
    for (int i = 0; i < sandboxes::MetricPoint::kFigures; ++i)
        sum.figure(i) = totals[i];
    nlohmann::json total = metricPointJson(sum);
    total.erase("t");
    nlohmann::json list = nlohmann::json::array();
    for (auto& r : rows)
        list.push_back(std::move(r.json));
    const auto stats = sampler.stats();
    return {{"projectId", project.id},
            {"sampledAt", nowMs()},
            {"intervalMs", sampler.intervalMs()},
            {"running", running},
            {"paused", paused},
            {"totals", total},
            {"limits", {{"cpus", cpusLimit}, {"memoryMb", memoryMbLimit}}},
            {"sandboxes", list},
            {"sampler",
             {{"cpuMs", std::round(stats.cpuMs * 1000) / 1000},
              {"wallMs", std::llround(stats.wallMs)},
              {"ticks", stats.ticks},
              {"sandboxes", stats.sandboxes},
              {"lastTickMs", std::round(stats.lastTickMs * 1000) / 1000}}}};
}

} // namespace

void registerMetricsRoutes(Router& router, ApiContext& ctx)
{
    sandboxes::SandboxManager& mgr = ctx.sandboxes;
    router.add(
        verb::get, "/api/sandboxes/{}/metrics", [&mgr, &ctx](const ExPtr& ex, const Params& p) {
            const auto sb = sandboxOrReply(mgr, ex, p[0], SandboxNeed::Running);
            if (!sb)
                return;
            auto range = metricsQueryRange(ex);
            if (!range)
                return ex->replyError(range.error());
            sandboxes::MetricsSampler& sampler = *ctx.metrics;
            auto answer = [&sampler, &mgr, sb, range = *range] {
                return sandboxMetricsJson(*sb, mgr.disk(sb->id), sampler.view(sb->id, range.ms),
                                          range.name, sampler.intervalMs());
            };
            if (!ex->wantsEventStream())
                return ex->replyJson(200, answer());
            auto stream = std::make_shared<MetricsStream>(ex, sampler, sb->id);
            stream->start(answer);
            trackByKey(ctx, ex, stream);
        });
    router.add(verb::get, "/api/projects/{}/metrics", [&ctx](const ExPtr& ex, const Params& p) {
        auto project = metricsProject(ctx.store, p[0]);
        if (!project)
            return ex->replyError(
                Error{ErrorKind::NotFound, "NOT_FOUND", "project " + p[0] + " not found"});
        ex->replyJson(200, projectMetricsJson(*project, ctx));
    });
}

} // namespace lizard::api
