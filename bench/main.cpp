// lizard-bench: measures lizard-local against its targets and prints one line per figure, with a
// reference measured in the same run where one exists. Usage:
//   lizard-bench --url http://127.0.0.1:PORT --key liz_... [--create-runs 20] [--exec-runs 100]
//                [--seconds 5] [--connections 4] [--sse-mb 200] [--lifecycle-runs 5] [--proxy-mb
//                200]
//                [--local-bin PATH [--restart-runs 5] [--restart-sandboxes 5]
//                 [--metrics-sandboxes 50]]
// --local-bin: the lizard-local to restart for the restart figure (it runs one of its own), and
// to run twice, with the activity log on and off, for the activity cost figures, and to sample
// --metrics-sandboxes idle sandboxes for the metrics figures. `--only metrics` measures those
// alone.
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
        " [--local-bin PATH [--restart-runs N] [--restart-sandboxes N] [--metrics-sandboxes N]]"
        " [--data-dir DIR] [--only metrics]\n");
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
        static const char* known[] = {"url",          "key",
                                      "create-runs",  "exec-runs",
                                      "seconds",      "connections",
                                      "sse-mb",       "lifecycle-runs",
                                      "proxy-mb",     "local-bin",
                                      "restart-runs", "restart-sandboxes",
                                      "data-dir",     "metrics-sandboxes",
                                      "only"};
        bool ok = false;
        for (const char* k : known)
            ok = ok || name == k;
        if (!ok || value.empty())
            return false;
    }
    // --only metrics runs a lizard-local of its own: no URL or key then.
    return (opts.count("url") && opts.count("key")) || opts.count("only");
}

int positive(const std::map<std::string, std::string>& opts, const std::string& name, int fallback)
{
    const auto it = opts.find(name);
    const int v = it == opts.end() ? fallback : std::atoi(it->second.c_str());
    return v > 0 ? v : fallback;
}

std::optional<Reference> bwrapReference(int runs)
{
    // --ro-bind / / gives it something to exec; /dev and /proc like a sandbox has.
    const ReferenceResult r = medianRunMs({"bwrap", "--unshare-all", "--ro-bind", "/", "/", "--dev",
                                           "/dev", "--proc", "/proc", "/bin/true"},
                                          runs);
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
        measureMetricsCost(opts["local-bin"], positive(opts, "metrics-sandboxes", 50), 20, 50);
    print(cost, allMeasured);
    print(latency, allMeasured);
    return allMeasured ? 0 : 2;
}

int run(std::map<std::string, std::string>& opts)
{
    if (opts.count("only")) {
        if (opts["only"] != "metrics")
            return 1;
        return runMetricsOnly(opts);
    }
    ApiClient api(opts["url"], opts["key"]);
    Session session(api); // deletes whatever it created, also on an early return
    std::printf("lizard-bench against %s (%u hardware threads)\n", opts["url"].c_str(),
                std::thread::hardware_concurrency());
    if (!session.ensureProject()) {
        std::printf("ERROR %s\n", session.error().c_str());
        return 2;
    }
    bool allMeasured = true;
    const std::optional<Reference> bwrap = bwrapReference(20);
    // The cold create with the base pool empty; then the same create claimed from the pool.
    const int basePool = templatePoolSize(api, "base");
    if (basePool > 0)
        setTemplatePool(api, "base", 0);
    const Figure cold = measureCreate(session, positive(opts, "create-runs", 20), bwrap);
    print(cold, allMeasured);
    std::optional<Reference> coldCreate;
    if (cold.error.empty())
        coldCreate = Reference{"cold create (median)", cold.value};
    // Pools: where the server keeps copies (its --pool-max lets the base pool hold 2).
    const bool pools = basePool >= 0 && setTemplatePool(api, "base", std::max(basePool, 2));
    if (pools) {
        print(measurePooledCreate(api, session.projectId(), positive(opts, "create-runs", 20),
                                  coldCreate),
              allMeasured);
        if (opts.count("data-dir"))
            for (const Figure& f : measureWarmCopyMemory(api, opts["data-dir"]))
                print(f, allMeasured);
    } else {
        std::printf("warm pool figures: the server keeps no pools (GET /api/templates, "
                    "--pool-max)\n");
    }

    const std::string id = session.createRunning(900000);
    if (id.empty()) {
        std::printf("ERROR %s\n", session.error().c_str());
        return 2;
    }
    print(measureExec(api, id, positive(opts, "exec-runs", 100), bwrap), allMeasured);
    print(measureGetRate(api, id, positive(opts, "connections", 4),
                         double(positive(opts, "seconds", 5))),
          allMeasured);
    const int megabytes = positive(opts, "sse-mb", 200);
    Figure sse = measureSse(api, id, megabytes);
    const ReferenceResult pipe = pipeThroughput(sseCommand(megabytes));
    if (pipe.error.empty())
        sse.reference = Reference{"same bytes piped locally", pipe.value};
    print(sse, allMeasured);
    print(measureProxy(api, id, positive(opts, "proxy-mb", 200)), allMeasured);
    if (pools)
        print(measureRefillLatency(api, id, 4), allMeasured);
    if (!session.destroy(id))
        std::printf("warning: %s\n", session.error().c_str());

    // Pause, resume, snapshot, restore, fork.
    const int lifecycleRuns = positive(opts, "lifecycle-runs", 5);
    auto [pause, resume] = measurePauseResume(api, session.projectId(), 4 * lifecycleRuns);
    print(pause, allMeasured);
    print(resume, allMeasured);
    auto [snapshot, restore] = measureSnapshotRestore(api, session.projectId(), lifecycleRuns);
    print(snapshot, allMeasured);
    print(restore, allMeasured);
    if (pools) {
        std::optional<Reference> coldRestore;
        if (restore.error.empty())
            coldRestore = Reference{"cold restore (median)", restore.value};
        print(measurePooledRestore(api, session.projectId(), lifecycleRuns, coldRestore),
              allMeasured);
    }
    print(measureFork(api, session.projectId(), 10, lifecycleRuns), allMeasured);

    if (opts.count("local-bin")) {
        print(measureRestart(opts["local-bin"], positive(opts, "restart-sandboxes", 5),
                             positive(opts, "restart-runs", 5)),
              allMeasured);
        // The same exec and SSE measurements with the activity log on and off.
        auto [execCost, sseCost] =
            measureActivityCost(opts["local-bin"], positive(opts, "exec-runs", 100),
                                std::min(megabytes, 100), positive(opts, "lifecycle-runs", 5));
        print(execCost, allMeasured);
        print(sseCost, allMeasured);
        auto [samplerCost, metricsLatency] =
            measureMetricsCost(opts["local-bin"], positive(opts, "metrics-sandboxes", 50), 20, 50);
        print(samplerCost, allMeasured);
        print(metricsLatency, allMeasured);
    } else {
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
