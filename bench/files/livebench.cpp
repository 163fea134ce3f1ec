#include "livebench.h"

#include "client/lizardapi.h"
#include "cpustallmeter.h"
#include "models/files/filechangefeed.h"
#include "models/files/sandboxfilemodel.h"
#include "stallmeter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTimer>
#include <QTreeView>
#include <algorithm>
#include <cstdio>

namespace lizard::bench {

namespace {

constexpr double kTargetStallMs = 50;
constexpr int kRounds = 3;

void spin(const std::function<bool()>& until, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!until() && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
}

} // namespace

bool measureLive(client::LizardApi& api, models::files::SandboxFileModel& model, QTreeView& view,
                 const QString& sandboxId, const QString& folder, int entries)
{
    using models::files::FileChangeFeed;
    FileChangeFeed feed(&api, &model);
    spin([&] { return feed.state() != FileChangeFeed::State::Starting; }, 10000);
    if (feed.state() != FileChangeFeed::State::Live) {
        std::fprintf(stderr, "lizard-bench-files: no fs.watch on this server (state %d)\n",
                     int(feed.state()));
        return false;
    }
    int drains = 0;
    int overflows = 0;
    QObject::connect(&feed, &FileChangeFeed::foldersChanged, [&](int folders) {
        ++drains;
        overflows += folders < 0 ? 1 : 0;
    });
    const QString last = folder + QStringLiteral("/zz-last.txt");
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
    StallMeter meter;
    CpuStallMeter busy;
    meter.start();
    busy.start();
    QElapsedTimer clock;
    clock.start();
    bool execDone = false;
    bool execOk = false;
    qint64 madeAt = 0;
    client::ExecOptions opts;
    opts.timeoutMs = 300000;
    QObject ctx;
    api.execArgv(sandboxId, {QStringLiteral("python3"), QStringLiteral("-c"), script}, opts, &ctx,
                 [&](client::Outcome<client::ExecResult> r) {
                     execOk = r && r.value().exitCode == 0;
                     madeAt = clock.elapsed();
                     execDone = true;
                 });
    spin([&] { return execDone && model.indexForPath(last).isValid(); }, 120000);
    const qint64 shownAt = clock.elapsed();
    const bool shown = model.indexForPath(last).isValid();
    // The size of every file is its last round's: the listing in the view is the current one.
    const QString first = folder + QStringLiteral("/file-00000.txt");
    const auto current = [&] {
        const QModelIndex i = model.indexForPath(first);
        return i.isValid() && model.entry(i).size == kRounds;
    };
    spin(current, 5000);
    QCoreApplication::processEvents();
    meter.stop();
    busy.stop();
    const bool ok = execOk && shown && current() && view.model()->rowCount() == entries + 1;
    // The stall also counts time the machine gave the app no CPU: the load says how busy it was.
    QFile loadavg(QStringLiteral("/proc/loadavg"));
    const QByteArray load =
        loadavg.open(QIODevice::ReadOnly) ? loadavg.readLine().split(' ').value(0) : "?";
    std::printf("files panel %d changing entries, live (fs.watch, %d rewrites each): last change "
                "shown %lld ms "
                "after it was made, %d drains (%d overflowed), max event-loop stall %.1f ms "
                "(target <= %.0f ms) %s "
                "(load average %s; longest CPU burst of the UI thread %.1f ms)\n",
                entries, kRounds, static_cast<long long>(shownAt - madeAt), drains, overflows,
                meter.maxStallMs(), kTargetStallMs,
                !ok                                    ? "ERROR"
                : meter.maxStallMs() <= kTargetStallMs ? "PASS"
                                                       : "MISS",
                load.constData(), busy.maxMs());
    std::fflush(stdout);
    return ok;
}

} // namespace lizard::bench
