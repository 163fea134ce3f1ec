// lizard-bench-coderun: the "runCode warm 1+1" figure. The app's CodeInterpreter (serve fast
// path) runs `1+1` in a warm Python context of a fresh `interpreter` sandbox; the official
// TypeScript SDK's sandbox.runCode('1+1') is measured against the same sandbox in the same run
// (node + the pinned SDK from tests/compat) and printed beside it as the reference, with the ratio.
// Then the "complete warm" figure: Tab completion of `np.lins` in the same warm context, with
// that 1+1 median as its reference (completebench.h), and "variables (200)": the variable
// explorer's silent listing of 200 variables there (variablesbench.h). Last, New notebook → first
// chart from the interpreter pool beside cold, through the app's client and the SDK
// (firstchart.h, sdk_firstchart.mjs).
//
//   lizard-bench-coderun --url http://127.0.0.1:PORT --key liz_... [--runs 30] [--complete-runs 50]
//                        [--variables-runs 50] [--sdk path/index.mjs]
// Exit status: 0 when measured (PASS or MISS), 2 when it could not be, 1 on bad arguments.

#include "bench/interpretersandbox.h"
#include "client/coderun/codeinterpreter.h"
#include "client/lizardapi.h"
#include "completebench.h"
#include "figure.h"
#include "firstchart.h"
#include "sdkreference.h"
#include "stats.h"
#include "tests/support/apiwait.h"
#include "variablesbench.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>

using namespace lizard;

namespace {

using test::waitFor;
using test::waitUntil;

// Median ms of `runs` warm runs of `1+1` through the app's client, or an error.
bench::Figure measureApp(client::CodeInterpreter& interp, int runs)
{
    bench::Figure f{.name = "runCode warm 1+1",
                    .statistic = "median of " + std::to_string(runs),
                    .unit = "ms",
                    .target = 8};
    interp.warmUp();
    std::vector<double> samples;
    for (int i = 0; i < runs + 3; ++i) { // the first starts the kernel; two more to settle
        const auto start = bench::Clock::now();
        client::CodeRun* run = interp.runCode(QStringLiteral("1+1"));
        waitUntil([run] { return run->isFinished(); }, 120000);
        const double ms = bench::msSince(start);
        if (!run->isFinished() || run->hasFailed() ||
            run->execution().text() != QLatin1String("2")) {
            f.error = run->hasFailed() ? run->failure()->toDisplayString().toStdString()
                                       : std::string("1+1 did not give 2 in time");
            return f;
        }
        run->deleteLater();
        if (i >= 3)
            samples.push_back(ms);
    }
    f.value = bench::median(samples);
    const std::string spread = bench::spreadNote(samples);
    char note[128];
    std::snprintf(note, sizeof note, "%s, %s", spread.c_str(),
                  interp.currentTransport() == client::CodeInterpreter::Transport::Serve
                      ? "serve fast path"
                      : "exec-per-run");
    f.note = note;
    return f;
}

void printStepsNote(bench::Figure& f, double createMs, double firstMs)
{
    char note[96];
    std::snprintf(note, sizeof note, "create %.1f ms, first 1+1 after %.1f ms", createMs, firstMs);
    f.note = note;
}

// New notebook → first chart from the pool, cold as the reference: through the app's client,
// then through the official SDK (whose own runner starts a python3 for every runCode).
bool printFirstCharts(client::LizardApi& api, const QString& sdk, const QString& url,
                      const QString& key, int runs)
{
    const auto projects = waitFor<QList<client::Project>>(
        [&](QObject* ctx, auto done) { api.listProjects(ctx, std::move(done)); }, 60000);
    if (!projects || !projects->ok() || projects->value().isEmpty())
        return false;
    const QString project = projects->value().first().id;
    const auto pools = waitFor<QList<client::TemplatePool>>(
        [&](QObject* ctx, auto done) { api.listTemplatePools(ctx, std::move(done)); }, 10000);
    const bool interpreterPool =
        pools && pools->ok() &&
        std::any_of(pools->value().begin(), pools->value().end(), [](const auto& p) {
            return p.name == QLatin1String("interpreter") && p.poolSize > 0;
        });
    if (!interpreterPool) {
        std::printf("New notebook -> first chart figures: none (the server keeps no interpreter "
                    "pool: GET /api/templates, --pool-max)\n");
        return true;
    }
    const std::string stat = "median of " + std::to_string(runs);
    bench::Figure app{
        .name = "New notebook -> chart, pool", .statistic = stat, .unit = "ms", .target = 300};
    const bench::FirstChart pooled = bench::measureFirstChart(api, project, true, runs);
    const bench::FirstChart cold = pooled.error.isEmpty()
                                       ? bench::measureFirstChart(api, project, false, runs)
                                       : bench::FirstChart{};
    if (!pooled.error.isEmpty() || !cold.error.isEmpty()) {
        app.error = (pooled.error.isEmpty() ? cold.error : pooled.error).toStdString();
    } else {
        app.value = pooled.totalMs();
        app.reference = bench::Reference{"cold (median)", cold.totalMs()};
        printStepsNote(app, pooled.createMs, pooled.firstMs);
    }
    std::printf("%s\n", app.line().c_str());
    std::fflush(stdout);
    const bench::SdkFirstChart s = bench::sdkFirstChartFigures(sdk, url, key, runs);
    if (!s.error.isEmpty()) {
        std::printf("SDK first chart figure: none (%s)\n", qPrintable(s.error));
        return app.error.empty();
    }
    bench::Figure first{.name = "SDK CodeSandbox -> 1+1",
                        .statistic = stat,
                        .unit = "ms",
                        .value = s.warm.createMs + s.warm.firstMs,
                        .target = 150,
                        .reference =
                            bench::Reference{"cold (median)", s.cold.createMs + s.cold.firstMs}};
    bench::Figure chart{.name = "SDK CodeSandbox -> chart",
                        .statistic = stat,
                        .unit = "ms",
                        .value = s.warm.totalMs(),
                        .target = 300,
                        .reference = bench::Reference{"cold (median)", s.cold.totalMs()}};
    printStepsNote(chart, s.warm.createMs, s.warm.firstMs);
    std::printf("%s\n%s\n", first.line().c_str(), chart.line().c_str());
    std::fflush(stdout);
    return app.error.empty();
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOptions(
        {{"url", "lizard-local URL", "url"},
         {"key", "API key", "key"},
         {"runs", "timed runs (default 30)", "n", "30"},
         {"complete-runs", "timed completions (default 50)", "n", "50"},
         {"variables-runs", "timed listings of 200 variables (default 50)", "n", "50"},
         {"create-runs", "timed SDK creates, from the pool and cold (default 20)", "n", "20"},
         {"chart-runs", "timed New notebook → first chart, pooled and cold (default 5)", "n", "5"},
         {"sdk", "the official SDK's dist/index.mjs", "path", QStringLiteral(LIZARD_SDK_INDEX)}});
    parser.process(app);
    if (!parser.isSet("url") || !parser.isSet("key")) {
        std::fprintf(stderr, "usage: lizard-bench-coderun --url URL --key KEY [--runs N] "
                             "[--complete-runs N] [--variables-runs N] [--create-runs N] "
                             "[--sdk index.mjs]\n");
        return 1;
    }
    const int runs = std::max(1, parser.value("runs").toInt());
    const int completeRuns = std::max(1, parser.value("complete-runs").toInt());
    const int variablesRuns = std::max(1, parser.value("variables-runs").toInt());
    client::LizardApi api(client::Endpoint{parser.value("url"), parser.value("key")});
    QString error;
    const QString sandboxId = bench::createInterpreterSandbox(api, &error);
    if (sandboxId.isEmpty()) {
        std::printf("%-50sERROR  %s\n", "runCode warm 1+1", qPrintable(error));
        return 2;
    }
    auto interpreter = std::make_unique<client::CodeInterpreter>(&api, sandboxId);
    client::CodeInterpreter& interp = *interpreter;
    bench::Figure f = measureApp(interp, runs);
    const bench::SdkReference sdk = bench::sdkRunCodeMedian(
        parser.value("sdk"), parser.value("url"), parser.value("key"), sandboxId, runs);
    if (sdk.error.isEmpty())
        f.reference = bench::Reference{"official SDK runCode('1+1')", sdk.medianMs};
    else
        std::printf("reference: none for runCode (%s)\n", qPrintable(sdk.error));
    std::printf("%s\n", f.line().c_str());
    if (sdk.error.isEmpty()) {
        // The SDK's own runner, an exec per call (lizard-agent forks it warm: runnerzygote.h).
        const bench::Figure sdkFigure{
            .name = "SDK runCode warm 1+1",
            .statistic = "median of " + std::to_string(runs),
            .unit = "ms",
            .value = sdk.medianMs,
            .target = 30,
            .note = "back to back; 100 ms apart: " +
                    QString::number(sdk.pacedMedianMs, 'f', 2).toStdString() + " ms"};
        std::printf("%s\n", sdkFigure.line().c_str());
    }
    std::fflush(stdout);
    // Completion asks the kernel that 1+1 warmed, so it runs only when that figure was measured.
    bench::Figure complete{.name = "complete warm np.lins", .statistic = "", .unit = "ms"};
    if (f.error.empty()) {
        complete = bench::measureCompletion(interp, completeRuns, f.value);
        std::printf("%s\n", complete.line().c_str());
        std::fflush(stdout);
    }
    // The variable explorer's refresh after a run, in the same warm kernel.
    bench::Figure variables{.name = "variables (200)", .statistic = "", .unit = "ms"};
    if (f.error.empty()) {
        variables = bench::measureVariables(interp, variablesRuns, f.value);
        std::printf("%s\n", variables.line().c_str());
        std::fflush(stdout);
    }
    interpreter.reset(); // its runner's stream ends before the sandbox does
    waitFor<client::Unit>(
        [&](QObject* ctx, auto done) { api.killSandbox(sandboxId, ctx, std::move(done)); }, 30000);
    // The official SDK's Sandbox.create claimed from the base pool, beside its cold create.
    const int createRuns = std::max(1, parser.value("create-runs").toInt());
    const bench::SdkCreate sdkCreate = bench::sdkCreateFigures(
        parser.value("sdk"), parser.value("url"), parser.value("key"), createRuns);
    if (sdkCreate.error.isEmpty()) {
        bench::Figure create{.name = "SDK Sandbox.create, pool",
                             .statistic = "median of " + std::to_string(createRuns),
                             .unit = "ms",
                             .value = sdkCreate.warmMedianMs,
                             .target = 10,
                             .reference = bench::Reference{"SDK Sandbox.create cold (median)",
                                                           sdkCreate.coldMedianMs}};
        char note[160];
        std::snprintf(note, sizeof note,
                      "p90 %.2f ms; after 1.5 s of quiet %.2f ms, a loopback echo after the same "
                      "quiet %.2f ms",
                      sdkCreate.warmP90Ms, sdkCreate.idleMedianMs, sdkCreate.echoIdleMedianMs);
        create.note = note;
        std::printf("%s\n", create.line().c_str());
        const bench::Figure fork{.name = "SDK fork({count: 10})",
                                 .statistic =
                                     "median of " + std::to_string(std::min(createRuns, 5)),
                                 .unit = "ms",
                                 .value = sdkCreate.fork10MedianMs,
                                 .target = 200};
        std::printf("%s\n", fork.line().c_str());
    } else {
        std::printf("SDK Sandbox.create figure: none (%s)\n", qPrintable(sdkCreate.error));
    }
    std::fflush(stdout);
    const bool charted =
        printFirstCharts(api, parser.value("sdk"), parser.value("url"), parser.value("key"),
                         std::max(1, parser.value("chart-runs").toInt()));
    return f.error.empty() && complete.error.empty() && variables.error.empty() && charted ? 0 : 2;
}
