// lizard-bench-resources: the main window (offscreen) with the Resources tab open on one of 20
// sandboxes that each do a little work every second, their CPU and Memory bars in the sandbox
// table, for 20 s. Prints the longest event-loop stall meanwhile (goal <= 16 ms), beside the UI
// thread's longest CPU burst (its own work, without the time it waited for a core) and the
// load average, which tell the app's work from the machine's.
//
//   lizard-bench-resources --url http://127.0.0.1:7411 --key liz_... [--sandboxes 20] [--seconds
//   20]

#include "benchawait.h"
#include "client/lizardapi.h"
#include "cpustallmeter.h"
#include "models/sandboxmetrics.h"
#include "models/sandboxtablemodel.h"
#include "stallmeter.h"
#include "ui/mainwindow.h"
#include "ui/resources/resourcespanel.h"
#include "ui/sandboxpanel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QTabWidget>
#include <algorithm>
#include <cstdio>

using namespace lizard;
using lizard::bench::await;

namespace {

constexpr double kGoalStallMs = 16;

// Work that moves every chart: a burst of CPU, some memory and a file written, once a second.
const char* const kLoad = "sh -c 'while :; do head -c 4000000 /dev/urandom | md5sum >/dev/null; "
                          "head -c 1000000 /dev/urandom >/tmp/load; sleep 1; done' "
                          ">/dev/null 2>&1 &";

QByteArray loadAverage()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    return f.open(QIODevice::ReadOnly) ? f.readLine().split(' ').value(0) : QByteArray("?");
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The Resources tab and the table's bars while many sandboxes work: the longest stall."));
    parser.addHelpOption();
    parser.addOption(
        {QStringLiteral("url"), QStringLiteral("A lizard-local URL."), QStringLiteral("url")});
    parser.addOption(
        {QStringLiteral("key"), QStringLiteral("Its API key."), QStringLiteral("key")});
    parser.addOption({QStringLiteral("sandboxes"),
                      QStringLiteral("Sandboxes at work (default 20)."), QStringLiteral("n"),
                      QStringLiteral("20")});
    parser.addOption({QStringLiteral("seconds"), QStringLiteral("For how long (default 20)."),
                      QStringLiteral("s"), QStringLiteral("20")});
    parser.process(app);
    if (!parser.isSet(QStringLiteral("url")) || !parser.isSet(QStringLiteral("key"))) {
        std::fprintf(stderr, "lizard-bench-resources: --url and --key are required\n");
        return 2;
    }
    const int count = std::clamp(parser.value(QStringLiteral("sandboxes")).toInt(), 1, 100);
    const int seconds = std::clamp(parser.value(QStringLiteral("seconds")).toInt(), 1, 600);
    client::LizardApi api(
        {parser.value(QStringLiteral("url")), parser.value(QStringLiteral("key"))});

    QStringList ids;
    QString failure;
    auto killAll = [&] {
        for (const QString& id : ids) {
            client::Unit unit;
            QString why;
            await<client::Unit>([&](QObject* c, auto done) { return api.killSandbox(id, c, done); },
                                &unit, &why);
        }
    };
    for (int i = 0; i < count && failure.isEmpty(); ++i) {
        client::SandboxInfo sandbox;
        if (!bench::createBenchSandbox(api, &sandbox, &failure))
            break;
        ids.append(sandbox.sandboxId);
        client::ExecResult result;
        await<client::ExecResult>(
            [&](QObject* c, auto done) {
                return api.exec(sandbox.sandboxId, QString::fromLatin1(kLoad), {}, c, done);
            },
            &result, &failure);
    }
    if (!failure.isEmpty()) {
        std::fprintf(stderr, "lizard-bench-resources: %d of %d sandboxes at work: %s\n",
                     int(ids.size()), count, qPrintable(failure));
        killAll();
        return 2;
    }

    ui::MainWindow window;
    window.setBackend(&api, QStringLiteral("bench"), {});
    window.resize(1400, 900);
    window.show();
    models::SandboxTableModel* table = window.sandboxModel();
    const bool listed = bench::runUntil(
        [&] {
            return std::all_of(ids.begin(), ids.end(),
                               [&](const QString& id) { return table->rowOf(id) >= 0; });
        },
        30000);
    ui::resources::ResourcesPanel* panel = window.resourcesPanel();
    bool charted = false;
    if (listed) {
        window.sandboxPanel()->selectSandbox(ids.first());
        window.toolTabs()->setCurrentWidget(panel);
        charted = bench::runUntil([&] { return panel->source()->metrics().latest.t > 0; }, 30000);
    }
    if (!charted) {
        std::fprintf(stderr, "lizard-bench-resources: %s\n",
                     listed ? "the Resources tab showed no figures within 30 s"
                            : "the table did not list the sandboxes within 30 s");
        killAll();
        return 1;
    }

    bench::StallMeter meter;
    bench::CpuStallMeter busy;
    meter.start();
    busy.start();
    bench::runFor(seconds * 1000);
    meter.stop();
    busy.stop();
    std::printf("Resources tab, %d sandboxes at work, %d s: longest UI stall %.1f ms (goal <= %.0f "
                "ms) %s (longest CPU burst of the UI thread %.1f ms; load average %s)\n",
                count, seconds, meter.maxStallMs(), kGoalStallMs,
                meter.maxStallMs() <= kGoalStallMs ? "PASS" : "MISS", busy.maxMs(),
                loadAverage().constData());
    std::fflush(stdout);
    window.close();
    killAll();
    return 0;
}
