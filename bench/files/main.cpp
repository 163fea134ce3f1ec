// lizard-bench-files: how the files panel copes with a folder of 10,000 entries. Creates a
// sandbox on the given lizard-local, fills a folder, then shows it in the panel's tree view
// (sorted, with icons, offscreen) and reports the time until all rows are listed and the
// longest event-loop stall meanwhile (target < 100 ms), then the same for a refresh, then the
// stall while every file changes and the panel follows through fs.watch (livebench.h).
//
//   lizard-bench-files --url http://127.0.0.1:7411 --key liz_... [--entries 10000]

#include "benchawait.h"
#include "client/lizardapi.h"
#include "diffbench.h"
#include "livebench.h"
#include "models/files/sandboxfilemodel.h"
#include "stallmeter.h"
#include "ui/files/fileiconproxy.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTreeView>
#include <cstdio>

using namespace lizard;
using lizard::bench::await;

namespace {

constexpr double kTargetStallMs = 100;

struct Run
{
    qint64 ms = 0;
    double stallMs = 0;
    bool ok = false;
};

// Shows the folder (or refreshes it) and waits until the model has listed it.
Run measure(models::files::SandboxFileModel& model, QTreeView& view, int entries, bool refresh)
{
    bench::StallMeter meter;
    QElapsedTimer t;
    bool listed = false;
    bool failed = false;
    const auto c1 = QObject::connect(&model, &models::files::SandboxFileModel::directoryListed,
                                     [&] { listed = true; });
    const auto c2 = QObject::connect(&model, &models::files::SandboxFileModel::listFailed,
                                     [&](const QString&, const client::ApiError& e) {
                                         std::fprintf(stderr, "list failed: %s\n",
                                                      qPrintable(e.toDisplayString()));
                                         failed = true;
                                     });
    meter.start();
    t.start();
    if (refresh)
        model.refresh();
    else
        view.model()->fetchMore({}); // what the view does when it is shown
    while (!listed && !failed)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    QCoreApplication::processEvents(); // the view's layout after the insert
    Run run;
    run.ms = t.elapsed();
    meter.stop();
    run.stallMs = meter.maxStallMs();
    run.ok = !failed && model.rowCount() == entries && view.model()->rowCount() == entries;
    QObject::disconnect(c1);
    QObject::disconnect(c2);
    return run;
}

void report(const char* what, int entries, const Run& run)
{
    std::printf("files panel %d entries, %s: listed in %lld ms, max event-loop stall %.1f ms "
                "(target < %.0f ms) %s\n",
                entries, what, static_cast<long long>(run.ms), run.stallMs, kTargetStallMs,
                !run.ok                         ? "ERROR"
                : run.stallMs <= kTargetStallMs ? "PASS"
                                                : "MISS");
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The files panel with a 10,000-entry folder"));
    parser.addHelpOption();
    parser.addOption(
        {QStringLiteral("url"), QStringLiteral("A lizard-local URL."), QStringLiteral("url")});
    parser.addOption(
        {QStringLiteral("key"), QStringLiteral("Its API key."), QStringLiteral("key")});
    parser.addOption({QStringLiteral("entries"),
                      QStringLiteral("Entries in the folder (default 10000)."), QStringLiteral("n"),
                      QStringLiteral("10000")});
    parser.process(app);
    // Needs no server: the Changes tab's diff view alone.
    const bool diffShown = bench::measureDiffView();
    if (!parser.isSet(QStringLiteral("url")) || !parser.isSet(QStringLiteral("key"))) {
        std::fprintf(stderr, "lizard-bench-files: --url and --key are required\n");
        return 2;
    }
    const int entries = qMax(1, parser.value(QStringLiteral("entries")).toInt());
    client::LizardApi api(
        {parser.value(QStringLiteral("url")), parser.value(QStringLiteral("key"))});
    QString failure;
    QList<client::Project> projects;
    if (!await<QList<client::Project>>(
            [&](QObject* c, auto done) { return api.listProjects(c, done); }, &projects,
            &failure) ||
        projects.isEmpty()) {
        std::fprintf(stderr, "lizard-bench-files: no project: %s\n", qPrintable(failure));
        return 2;
    }
    client::CreateSandboxRequest req;
    req.projectId = projects.first().id;
    client::SandboxInfo sandbox;
    if (!await<client::SandboxInfo>(
            [&](QObject* c, auto done) { return api.createSandbox(req, c, done); }, &sandbox,
            &failure)) {
        std::fprintf(stderr, "lizard-bench-files: create sandbox: %s\n", qPrintable(failure));
        return 2;
    }
    const QString script =
        QStringLiteral(
            "import os\nos.makedirs('/home/user/many', exist_ok=True)\n"
            "for i in range(%1): open('/home/user/many/file-%05d.txt' % i, 'w').close()\n")
            .arg(entries);
    client::ExecResult made;
    client::ExecOptions opts;
    opts.timeoutMs = 300000;
    const bool filled = await<client::ExecResult>(
        [&](QObject* c, auto done) {
            return api.execArgv(sandbox.sandboxId, {"python3", "-c", script}, opts, c, done);
        },
        &made, &failure);
    int rc = 0;
    if (!filled || made.exitCode != 0) {
        std::fprintf(stderr, "lizard-bench-files: filling the folder failed: %s %s\n",
                     qPrintable(failure), qPrintable(made.stderrText));
        rc = 2;
    } else {
        models::files::SandboxFileModel model(&api);
        ui::files::FileIconProxy proxy;
        proxy.setSourceModel(&model);
        QTreeView view;
        view.setUniformRowHeights(true);
        view.setSortingEnabled(true);
        view.setModel(&proxy);
        view.sortByColumn(0, Qt::AscendingOrder);
        view.resize(900, 600);
        model.setLocation(sandbox.sandboxId, QStringLiteral("/home/user/many"));
        view.show();
        const Run first = measure(model, view, entries, false);
        report("first listing", entries, first);
        const Run again = measure(model, view, entries, true);
        report("refresh", entries, again);
        const bool live = bench::measureLive(api, model, view, sandbox.sandboxId,
                                             QStringLiteral("/home/user/many"), entries);
        rc = first.ok && again.ok && live && diffShown ? 0 : 1;
    }
    client::Unit unit;
    await<client::Unit>(
        [&](QObject* c, auto done) { return api.killSandbox(sandbox.sandboxId, c, done); }, &unit,
        &failure);
    return rc;
}
