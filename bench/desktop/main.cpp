// lizard-bench-desktop: the Screen tab's figures for both viewers it could use, the app's web
// viewer (the preview plugin's QtWebEngine view on the noVNC page, as the tab shows it) and a
// native RFB widget (vncview.h, a prototype for this comparison). Creates a `desktop` sandbox on
// the given lizard-local (killed at the end, whatever happened) and prints, per viewer:
//   - start -> first frame: POST /desktop (stopped before) until a grab of the viewer shows the
//     desktop at its centre (target 3 s, median of 3, 1 when quick);
//   - xdotool -> visible: an exec of `xdotool mousemove X Y click 3` (openbox's root menu) until
//     a grab shows the menu (target 150 ms median of 20, 6 when quick), beside the execs' answers;
//   - CPU of this process and its QtWebEngine children while the desktop is static (10 s, 3 s
//     when quick), beside the same process with no viewer;
// then the PSS of the desktop's processes in the sandbox. LIZARD_BENCH_QUICK=1: fewer runs.
//
//   lizard-bench-desktop --url http://127.0.0.1:7411 --key liz_...

#include "benchawait.h"
#include "client/lizardapi.h"
#include "probe.h"
#include "viewerbench.h"

#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>
#include <optional>
#include <unistd.h>

using namespace lizard;
using bench::await;

namespace {

// PSS of the desktop's processes (their pid files), in MiB: shared pages counted once.
bench::Figure serverMemory(client::LizardApi& api, const QString& id)
{
    const QString cmd =
        QStringLiteral("for f in /tmp/.lizard-desktop/*.pid; do cat /proc/$(cat $f)/smaps_rollup; "
                       "done | awk '/^Pss:/ {s+=$2; n++} END {print s, n}'");
    client::ExecResult r;
    QString failure;
    bench::Figure f{.name = "server memory per desktop",
                    .statistic = "PSS, no viewer",
                    .unit = "MiB",
                    .hasTarget = false};
    if (!await<client::ExecResult>(
            [&](QObject* c, auto done) { return api.exec(id, cmd, {}, c, done); }, &r, &failure) ||
        r.exitCode != 0) {
        f.error = (failure + r.stderrText).toStdString();
        return f;
    }
    const QString out = r.stdoutText.trimmed();
    f.value = out.section(' ', 0, 0).toDouble() / 1024.0;
    f.note = out.section(' ', 1, 1).toStdString() + " processes, from the desktop's pid files";
    if (f.value <= 0)
        f.error = "no PSS read: " + r.stdoutText.toStdString();
    return f;
}

void print(const std::vector<bench::Figure>& figures, size_t from)
{
    for (size_t i = from; i < figures.size(); ++i)
        std::printf("%s\n", figures[i].line().c_str());
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (geteuid() == 0)
        qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1"); // Chromium refuses its sandbox as root
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The Screen tab's figures, web and native viewer"));
    parser.addHelpOption();
    parser.addOption(
        {QStringLiteral("url"), QStringLiteral("A lizard-local URL."), QStringLiteral("url")});
    parser.addOption(
        {QStringLiteral("key"), QStringLiteral("Its API key."), QStringLiteral("key")});
    parser.addOption(
        {QStringLiteral("shots"),
         QStringLiteral("Save each viewer's first frame and open menu as PNGs in this folder."),
         QStringLiteral("dir")});
    parser.process(app);
    if (!parser.isSet(QStringLiteral("url")) || !parser.isSet(QStringLiteral("key"))) {
        std::fprintf(stderr, "lizard-bench-desktop: --url and --key are required\n");
        return 2;
    }
    bench::DesktopBenchOptions options;
    if (qEnvironmentVariable("LIZARD_BENCH_QUICK") == QLatin1String("1"))
        options = {.startRuns = 1, .inputRuns = 6, .cpuSeconds = 3};
    options.shotsDir = parser.value(QStringLiteral("shots"));
    client::LizardApi api(
        {parser.value(QStringLiteral("url")), parser.value(QStringLiteral("key"))});
    QString failure;
    QList<client::Project> projects;
    if (!await<QList<client::Project>>(
            [&](QObject* c, auto done) { return api.listProjects(c, done); }, &projects,
            &failure) ||
        projects.isEmpty()) {
        std::fprintf(stderr, "lizard-bench-desktop: no project: %s\n", qPrintable(failure));
        return 2;
    }
    client::CreateSandboxRequest req;
    req.projectId = projects.first().id;
    req.templateName = QStringLiteral("desktop");
    req.timeoutMs = 900000; // should this process die, the server still ends the sandbox
    client::SandboxInfo sandbox;
    std::optional<client::ApiError> refused;
    bool created = false;
    QObject ctx;
    api.createSandbox(req, &ctx, [&](client::Outcome<client::SandboxInfo> o) {
        if (o)
            sandbox = o.value();
        else
            refused = o.error();
        created = true;
    });
    bench::runUntil([&] { return created; }, 600000);
    if (!created || refused) {
        const QString why =
            refused ? refused->toDisplayString() : QStringLiteral("no answer in 10 min");
        // A host without the desktop's packages has no figures to give, which is not a failure.
        if (refused && (refused->code == QLatin1String("TEMPLATE_UNAVAILABLE") ||
                        refused->code == QLatin1String("SANDBOX_RUNTIME_UNAVAILABLE"))) {
            std::printf("desktop figures: not measured, no desktop sandbox here: %s\n",
                        qPrintable(why));
            return 0;
        }
        std::fprintf(stderr, "lizard-bench-desktop: create a desktop sandbox: %s\n",
                     qPrintable(why));
        return 2;
    }
    std::printf("desktop viewers (1280x800 desktop in a %dx%d viewer, offscreen):\n",
                bench::kViewerSize.width(), bench::kViewerSize.height());
    std::vector<bench::Figure> figures;
    bool ok = true;
    // Native first: the web viewer's QtWebEngine processes outlive its view and would sit in the
    // native viewer's process tree (idle, but counted).
    for (const auto& make : {bench::nativeViewer(), bench::webViewer(&api, sandbox.sandboxId)}) {
        const size_t from = figures.size();
        ok = bench::measureViewer(api, sandbox.sandboxId, make, options, &figures) && ok;
        print(figures, from);
    }
    figures.push_back(serverMemory(api, sandbox.sandboxId));
    print(figures, figures.size() - 1);
    ok = figures.back().error.empty() && ok;
    client::Unit unit;
    await<client::Unit>(
        [&](QObject* c, auto done) { return api.killSandbox(sandbox.sandboxId, c, done); }, &unit,
        &failure);
    return ok ? 0 : 1;
}
