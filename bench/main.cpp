// lizard-bench: measures lizard-local against its targets and prints one line per figure, with a
// reference measured in the same run where one exists. Usage:
//   lizard-bench --url http://127.0.0.1:PORT --key liz_... [--create-runs 20] [--exec-runs 100]
//                [--seconds 5] [--connections 4] [--sse-mb 200] [--lifecycle-runs 5] [--proxy-mb
//                200] [--changes-files 100000]
//                [--local-bin PATH [--restart-runs 5] [--restart-sandboxes 5]
//                 [--metrics-sandboxes 50] [--metrics-seconds 20]]
//                [--only
//                create,pool,exec,get,sse,proxy,changes,templates,pause,snapshot,fork,restart,activity,metrics]
// --local-bin: the lizard-local to restart for the restart figure (it runs one of its own), to
// run twice, with the activity log on and off, for the activity cost figures, and to sample
// --metrics-sandboxes idle sandboxes for --metrics-seconds for the metrics figures.
// --only: just those figures (a comparison of two builds repeats a few figures in turns);
// `--only metrics` needs no --url or --key (its lizard-local is its own).
// Exit status: 0 when every figure was measured (PASS or MISS), 2 when one could not be, 1 on
// bad arguments.

#include "benchmarks.h"
#include "reference.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <curl/curl.h>
#include <map>
#include <string>
#include <thread>

using namespace lizard::bench;

namespace {

void usage()
{
    std::fprintf(
        stderr,
        "usage: lizard-bench --url URL --key KEY [--create-runs N] [--exec-runs N]"
        " [--seconds S] [--connections N] [--sse-mb MB] [--lifecycle-runs N] [--proxy-mb MB]"
        " [--changes-files N]"
        " [--local-bin PATH [--restart-runs N] [--restart-sandboxes N] [--metrics-sandboxes N]"
        " [--metrics-seconds S]]"
        " [--data-dir DIR]"
        " [--only FIGURE,...]\n");
}

// The figure names --only takes.
const char* const kFigureNames[] = {"create",  "pool",     "exec",    "get",      "sse",
                                    "proxy",   "changes",  "pause",   "snapshot", "fork",
                                    "restart", "activity", "metrics", "templates"};

// Whether --only (a comma-separated list of kFigureNames) leaves `name` in; every figure without
// it.
bool wanted(const std::map<std::string, std::string>& opts, const std::string& name)
{
    const auto it = opts.find("only");
    if (it == opts.end())
        return true;
    const std::string list = "," + it->second + ",";
    return list.find("," + name + ",") != std::string::npos;
}

bool validOnly(const std::map<std::string, std::string>& opts)
{
    const auto it = opts.find("only");
    if (it == opts.end())
        return true;
    size_t start = 0;
    while (start <= it->second.size()) {
        const size_t comma = std::min(it->second.find(',', start), it->second.size());
        const std::string name = it->second.substr(start, comma - start);
        if (std::find(std::begin(kFigureNames), std::end(kFigureNames), name) ==
            std::end(kFigureNames))
            return false;
        start = comma + 1;
    }
    return true;
}

bool parseArgs(int argc, char** argv, std::map<std::string, std::string>& opts)
{
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0 || i + 1 >= argc)
            return false;
        opts[arg.substr(2)] = argv[++i];
    }
    for (const auto& [name, value] : opts) {
        static const char* known[] = {"url",           "key",
                                      "create-runs",   "exec-runs",
                                      "seconds",       "connections",
                                      "sse-mb",        "lifecycle-runs",
                                      "proxy-mb",      "local-bin",
                                      "restart-runs",  "restart-sandboxes",
                                      "data-dir",      "metrics-sandboxes",
                                      "changes-files", "metrics-seconds",
                                      "only"};
        bool ok = false;
        for (const char* k : known)
            ok = ok || name == k;
        if (!ok || value.empty())
            return false;
    }
    // --only metrics runs a lizard-local of its own: no URL or key then.
    const auto only = opts.find("only");
    const bool metricsOnly = only != opts.end() && only->second == "metrics";
    return ((opts.count("url") && opts.count("key")) || metricsOnly) && validOnly(opts);
}

int positive(const std::map<std::string, std::string>& opts, const std::string& name, int fallback)
{
    const auto it = opts.find(name);
    const int v = it == opts.end() ? fallback : std::atoi(it->second.c_str());
    return v > 0 ? v : fallback;
}

std::optional<Reference> bwrapReference(int runs)
{
    // --ro-bind / / gives it something to exec; /dev and /proc like a sandbox has. It remounts
    // every mount of the host read-only in its copy: one that another program unmounts meanwhile
    // (a sandbox's disk, while suites run beside) fails the run, so a failed series is tried
    // again, up to three times.
    ReferenceResult r;
    for (int attempt = 0; attempt < 3; ++attempt) {
        r = medianRunMs({"bwrap", "--unshare-all", "--ro-bind", "/", "/", "--dev", "/dev", "--proc",
                         "/proc", "/bin/true"},
                        runs);
        if (r.error.empty())
            break;
    }
    if (!r.error.empty()) {
        std::printf("reference: none for create/exec (%s)\n", r.error.c_str());
        return std::nullopt;
    }
    return Reference{"bwrap --unshare-all /bin/true", r.value};
}

void print(const Figure& f, bool& allMeasured)
{
    std::printf("%s\n", f.line().c_str());
    std::fflush(stdout);
    allMeasured = allMeasured && f.error.empty();
}

int runMetricsOnly(std::map<std::string, std::string>& opts)
{
    if (!opts.count("local-bin")) {
        std::printf("ERROR --only metrics needs --local-bin\n");
        return 1;
    }
    bool allMeasured = true;
    auto [cost, latency] =
        measureMetricsCost(opts["local-bin"], positive(opts, "metrics-sandboxes", 50),
                           positive(opts, "metrics-seconds", 20), 50);
    print(cost, allMeasured);
    print(latency, allMeasured);
    return allMeasured ? 0 : 2;
}

int run(std::map<std::string, std::string>& opts)
{
    if (opts.count("only") && opts["only"] == "metrics")
        return runMetricsOnly(opts);
    ApiClient api(opts["url"], opts["key"]);
    Session session(api); // deletes whatever it created, also on an early return
    std::printf("lizard-bench against %s (%u hardware threads)\n", opts["url"].c_str(),
                std::thread::hardware_concurrency());
    if (!session.ensureProject()) {
        std::printf("ERROR %s\n", session.error().c_str());
        return 2;
    }
    bool allMeasured = true;
    const bool needBwrap = wanted(opts, "create") || wanted(opts, "exec");
    const std::optional<Reference> bwrap = needBwrap ? bwrapReference(20) : std::nullopt;
    // The cold create with the base pool empty; then the same create claimed from the pool.
    // (Only when those figures run: a pool refilling meanwhile would weigh on the others.)
    const bool poolFigures = wanted(opts, "create") || wanted(opts, "pool");
    const int basePool = poolFigures ? templatePoolSize(api, "base") : -1;
    if (basePool > 0)
        setTemplatePool(api, "base", 0);
    std::optional<Reference> coldCreate;
    if (wanted(opts, "create")) {
        const Figure cold = measureCreate(session, positive(opts, "create-runs", 20), bwrap);
        print(cold, allMeasured);
        if (cold.error.empty())
            coldCreate = Reference{"cold create (median)", cold.value};
    }
    // Pools: where the server keeps copies (its --pool-max lets the base pool hold 2).
    const bool pools = basePool >= 0 && setTemplatePool(api, "base", std::max(basePool, 2));
    if (pools && wanted(opts, "pool")) {
        print(measurePooledCreate(api, session.projectId(), positive(opts, "create-runs", 20),
                                  coldCreate),
              allMeasured);
        if (opts.count("data-dir"))
            for (const Figure& f : measureWarmCopyMemory(api, opts["data-dir"]))
                print(f, allMeasured);
    } else if (!pools && poolFigures) {
        std::printf("warm pool figures: the server keeps no pools (GET /api/templates, "
                    "--pool-max)\n");
    }

    const int megabytes = positive(opts, "sse-mb", 200);
    if (wanted(opts, "exec") || wanted(opts, "get") || wanted(opts, "sse") ||
        wanted(opts, "proxy") || wanted(opts, "changes") || (pools && wanted(opts, "pool"))) {
        const std::string id = session.createRunning(900000);
        if (id.empty()) {
            std::printf("ERROR %s\n", session.error().c_str());
            return 2;
        }
        if (wanted(opts, "exec"))
            print(measureExec(api, id, positive(opts, "exec-runs", 100), bwrap), allMeasured);
        if (wanted(opts, "get"))
            print(measureGetRate(api, id, positive(opts, "connections", 4),
                                 double(positive(opts, "seconds", 5))),
                  allMeasured);
        if (wanted(opts, "sse")) {
            Figure sse = measureSse(api, id, megabytes);
            const ReferenceResult pipe = pipeThroughput(sseCommand(megabytes));
            if (pipe.error.empty()) {
                sse.reference = Reference{"same bytes piped locally", pipe.value};
                sse.target = 0.8 * pipe.value; // the goal is a share of what a pipe carries here
            }
            print(sse, allMeasured);
        }
        if (wanted(opts, "proxy"))
            print(measureProxy(api, id, positive(opts, "proxy-mb", 200)), allMeasured);
        if (pools && wanted(opts, "pool"))
            print(measureRefillLatency(api, id, 4), allMeasured);
        // Last: its files stay in the sandbox.
        if (wanted(opts, "changes"))
            print(measureChanges(api, id, positive(opts, "changes-files", 100000), 5), allMeasured);
        if (!session.destroy(id))
            std::printf("warning: %s\n", session.error().c_str());
    }

    if (wanted(opts, "templates")) {
        auto [cold, warm] = measureTemplateBuild(api);
        print(cold, allMeasured);
        print(warm, allMeasured);
    }

    // Pause, resume, snapshot, restore, fork.
    const int lifecycleRuns = positive(opts, "lifecycle-runs", 5);
    if (wanted(opts, "pause")) {
        auto [pause, resume] = measurePauseResume(api, session.projectId(), 4 * lifecycleRuns);
        print(pause, allMeasured);
        print(resume, allMeasured);
    }
    if (wanted(opts, "snapshot")) {
        auto [snapshot, restore] = measureSnapshotRestore(api, session.projectId(), lifecycleRuns);
        print(snapshot, allMeasured);
        print(restore, allMeasured);
        if (pools && wanted(opts, "pool")) {
            std::optional<Reference> coldRestore;
            if (restore.error.empty())
                coldRestore = Reference{"cold restore (median)", restore.value};
            print(measurePooledRestore(api, session.projectId(), lifecycleRuns, coldRestore),
                  allMeasured);
        }
    }
    if (wanted(opts, "fork"))
        print(measureFork(api, session.projectId(), 10, lifecycleRuns), allMeasured);

    if (opts.count("local-bin") &&
        (wanted(opts, "restart") || wanted(opts, "activity") || wanted(opts, "metrics"))) {
        if (wanted(opts, "restart"))
            print(measureRestart(opts["local-bin"], positive(opts, "restart-sandboxes", 5),
                                 positive(opts, "restart-runs", 5)),
                  allMeasured);
        if (wanted(opts, "activity")) {
            // The same exec and SSE measurements with the activity log on and off.
            auto [execCost, sseCost] =
                measureActivityCost(opts["local-bin"], positive(opts, "exec-runs", 100),
                                    std::min(megabytes, 100), positive(opts, "lifecycle-runs", 5));
            print(execCost, allMeasured);
            print(sseCost, allMeasured);
        }
        if (wanted(opts, "metrics")) {
            auto [samplerCost, metricsLatency] =
                measureMetricsCost(opts["local-bin"], positive(opts, "metrics-sandboxes", 50),
                                   positive(opts, "metrics-seconds", 20), 50);
            print(samplerCost, allMeasured);
            print(metricsLatency, allMeasured);
        }
    } else if (!opts.count("local-bin")) {
        std::printf("restart, activity and metrics figures: no --local-bin given\n");
    }
    return allMeasured ? 0 : 2;
}

} // namespace

int main(int argc, char** argv)
{
    std::map<std::string, std::string> opts;
    if (!parseArgs(argc, argv, opts)) {
        usage();
        return 1;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    const int status = run(opts);
    curl_global_cleanup();
    return status;
}
