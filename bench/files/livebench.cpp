#include "livebench.h"

#include "benchawait.h"
#include "client/lizardapi.h"
#include "models/files/filechangefeed.h"
#include "models/files/sandboxfilemodel.h"
#include "schedstallmeter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTimer>
#include <QTreeView>
#include <algorithm>
#include <cstdio>
#include <optional>

namespace lizard::bench {

namespace {

constexpr double kTargetStallMs = 50;
constexpr int kRounds = 3;

// A blocking event loop woken at least every 50 ms (see runUntil): sleeps like the app's.
void spin(const std::function<bool()>& until, int timeoutMs)
{
    bench::runUntil(until, timeoutMs, 50);
}

QByteArray loadAverage()
{
    QFile loadavg(QStringLiteral("/proc/loadavg"));
    return loadavg.open(QIODevice::ReadOnly) ? loadavg.readLine().split(' ').value(0) : "?";
}

// Where the UI thread was during the longest stall (SchedStallMeter).
QByteArray breakdown(const SchedStallMeter& meter)
{
    const SchedStallMeter::Wait& w = meter.longest();
    if (!meter.hasSchedstat())
        return QByteArray::number(meter.waitsOver50ms()) +
               " over 50 ms; no schedstat here to tell work from waiting";
    return QStringLiteral("%1 over 50 ms; the longest: %2 ms on a CPU, %3 ms waiting for a core, "
                          "%4 ms asleep; longest CPU burst of the UI thread %5 ms")
        .arg(meter.waitsOver50ms())
        .arg(w.cpuMs, 0, 'f', 1)
        .arg(w.runqueueMs, 0, 'f', 1)
        .arg(w.sleptMs(), 0, 'f', 1)
        .arg(meter.longestBurstMs(), 0, 'f', 1)
        .toUtf8();
}

struct Churn
{
    bool ok = false;
    qint64 madeAt = 0; // when the command ended (its last file made), on clock
    QElapsedTimer clock;
    SchedStallMeter stall;
    QByteArray load;
};

// Rewrites every file of folder kRounds times, then (re)creates `last`, while the event loop
// runs until done() (or two minutes); meters the loop meanwhile.
void churn(client::LizardApi& api, const QString& sandboxId, const QString& folder, int entries,
           const QString& last, const std::function<bool(bool execDone)>& done, Churn* out)
{
    const QString script =
        QStringLiteral("import time\n"
                       "for r in range(%1):\n"
                       "    for i in range(%2):\n"
                       "        open('%3/file-%05d.txt' % i, 'w').write(str(r) * (r + 1))\n"
                       "    time.sleep(0.5)\n"
                       "open('%4', 'w').close()\n")
            .arg(kRounds)
            .arg(entries)
            .arg(folder, last);
    out->stall.start();
    out->clock.start();
    bool execDone = false;
    client::ExecOptions opts;
    opts.timeoutMs = 300000;
    QObject ctx;
    api.execArgv(sandboxId, {QStringLiteral("python3"), QStringLiteral("-c"), script}, opts, &ctx,
                 [&](client::Outcome<client::ExecResult> r) {
                     out->ok = r && r.value().exitCode == 0;
                     out->madeAt = out->clock.elapsed();
                     execDone = true;
                 });
    spin([&] { return done(execDone); }, 120000);
    if (!execDone) {
        out->ok = false;
        spin([&] { return execDone; }, 120000); // the command outlives ctx otherwise
    }
}

} // namespace

bool measureLive(client::LizardApi& api, models::files::SandboxFileModel& model, QTreeView& view,
                 const QString& sandboxId, const QString& folder, int entries)
{
    using models::files::FileChangeFeed;
    std::optional<FileChangeFeed> feed(std::in_place, &api, &model);
    spin([&] { return feed->state() != FileChangeFeed::State::Starting; }, 10000);
    if (feed->state() != FileChangeFeed::State::Live) {
        std::fprintf(stderr, "lizard-bench-files: no fs.watch on this server (state %d)\n",
                     int(feed->state()));
        return false;
    }
    int drains = 0;
    int overflows = 0;
    QObject::connect(&*feed, &FileChangeFeed::foldersChanged, [&](int folders) {
        ++drains;
        overflows += folders < 0 ? 1 : 0;
    });
    const QString last = folder + QStringLiteral("/zz-last.txt");
    // indexForPath looks through 10,000 rows: only after a listing, not on every event.
    int listings = 0;
    int looked = -1;
    bool seen = false;
    QObject::connect(&model, &models::files::SandboxFileModel::directoryListed, &*feed,
                     [&] { ++listings; });
    Churn live;
    churn(
        api, sandboxId, folder, entries, last,
        [&](bool execDone) {
            if (execDone && looked != listings) {
                looked = listings;
                seen = model.indexForPath(last).isValid();
            }
            return execDone && seen;
        },
        &live);
    const qint64 shownAt = live.clock.elapsed();
    const bool shown = model.indexForPath(last).isValid();
    // The size of every file is its last round's: the listing in the view is the current one.
    const QString first = folder + QStringLiteral("/file-00000.txt");
    const auto current = [&] {
        const QModelIndex i = model.indexForPath(first);
        return i.isValid() && model.entry(i).size == kRounds;
    };
    spin(current, 5000);
    QCoreApplication::processEvents();
    live.stall.stop();
    live.load = loadAverage();
    const bool ok = live.ok && shown && current() && view.model()->rowCount() == entries + 1;

    // The reference: the same churn with nobody following it (no watcher, no listing), metered
    // by the same meters in the same process. What stalls this bare loop is the machine.
    feed.reset();
    Churn bare;
    churn(
        api, sandboxId, folder, entries, last, [](bool execDone) { return execDone; }, &bare);
    QCoreApplication::processEvents();
    bare.stall.stop();
    bare.load = loadAverage();

    const double stall = live.stall.longest().ms;
    const double ref = bare.stall.longest().ms;
    std::printf("files panel %d changing entries, live (fs.watch, %d rewrites each): last change "
                "shown %lld ms after it was made, %d drains (%d overflowed), max event-loop stall "
                "%.1f ms (target <= %.0f ms) %s (%s; load average %s); the same churn followed by "
                "nobody: %.1f ms (%s; load average %s), ratio %.2f\n",
                entries, kRounds, static_cast<long long>(shownAt - live.madeAt), drains, overflows,
                stall, kTargetStallMs,
                !ok || !bare.ok           ? "ERROR"
                : stall <= kTargetStallMs ? "PASS"
                                          : "MISS",
                breakdown(live.stall).constData(), live.load.constData(), ref,
                breakdown(bare.stall).constData(), bare.load.constData(),
                ref > 0 ? stall / ref : 0.0);
    std::fflush(stdout);
    return ok && bare.ok;
}

} // namespace lizard::bench
