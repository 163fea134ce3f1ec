// lizard-bench-activity: the Activity tab (shown, offscreen) following a sandbox while an agent
// runs 50 execs a second for 10 s. The agent is a thread of its own with its own LizardApi, as
// an SDK in another process would be, so the UI thread carries only the tab's work. Prints the
// longest event-loop stall meanwhile (target <= 50 ms; beside the load average and the UI
// thread's longest CPU burst, which tell work from waiting for a core) and the lag from each
// exec's answer to its row in the tab's model (median and max).
//
//   lizard-bench-activity --url http://127.0.0.1:7411 --key liz_... [--rate 50] [--seconds 10]

#include "benchawait.h"
#include "client/lizardapi.h"
#include "cpustallmeter.h"
#include "models/activity/activitylistmodel.h"
#include "stallmeter.h"
#include "ui/activity/activitypanel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QMutex>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace lizard;
using lizard::bench::await;

namespace {

constexpr double kTargetStallMs = 50;

qint64 nowUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

QString marker(int i)
{
    return QStringLiteral("activity-bench-%1").arg(i);
}

// The agent: `echo <marker>` every 1000/rate ms without waiting for the previous one, each
// answer's arrival noted.
class Agent : public QThread
{
public:
    Agent(client::Endpoint endpoint, QString sandboxId, int rate, int total)
        : m_endpoint(std::move(endpoint)), m_sandboxId(std::move(sandboxId)), m_rate(rate),
          m_answeredUs(size_t(total), 0)
    {
    }
    qint64 answeredUs(int i)
    {
        QMutexLocker lock(&m_mutex);
        return m_answeredUs[size_t(i)];
    }
    int failures() const { return m_failures; }
    bool finished() const { return m_done; }

protected:
    void run() override
    {
        client::LizardApi api(m_endpoint);
        const int total = int(m_answeredUs.size());
        int sent = 0;
        int answered = 0;
        QTimer tick;
        tick.setTimerType(Qt::PreciseTimer);
        tick.setInterval(1000 / m_rate);
        QObject ctx;
        QObject::connect(&tick, &QTimer::timeout, [&] {
            const int i = sent++;
            if (sent == total)
                tick.stop();
            api.execArgv(m_sandboxId, {QStringLiteral("echo"), marker(i)}, {}, &ctx,
                         [&, i](client::Outcome<client::ExecResult> r) {
                             {
                                 QMutexLocker lock(&m_mutex);
                                 m_answeredUs[size_t(i)] = nowUs();
                             }
                             if (!r || r.value().exitCode != 0)
                                 ++m_failures;
                             if (++answered == total)
                                 quit();
                         });
        });
        tick.start();
        exec();
        m_done = true;
    }

private:
    client::Endpoint m_endpoint;
    QString m_sandboxId;
    int m_rate;
    QMutex m_mutex;
    std::vector<qint64> m_answeredUs;
    std::atomic<int> m_failures{0};
    std::atomic<bool> m_done{false};
};

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The Activity tab following a busy agent"));
    parser.addHelpOption();
    parser.addOption(
        {QStringLiteral("url"), QStringLiteral("A lizard-local URL."), QStringLiteral("url")});
    parser.addOption(
        {QStringLiteral("key"), QStringLiteral("Its API key."), QStringLiteral("key")});
    parser.addOption({QStringLiteral("rate"), QStringLiteral("Execs a second (default 50)."),
                      QStringLiteral("n"), QStringLiteral("50")});
    parser.addOption({QStringLiteral("seconds"), QStringLiteral("For how long (default 10)."),
                      QStringLiteral("s"), QStringLiteral("10")});
    parser.process(app);
    if (!parser.isSet(QStringLiteral("url")) || !parser.isSet(QStringLiteral("key"))) {
        std::fprintf(stderr, "lizard-bench-activity: --url and --key are required\n");
        return 2;
    }
    const int rate = std::clamp(parser.value(QStringLiteral("rate")).toInt(), 1, 1000);
    const int seconds = std::clamp(parser.value(QStringLiteral("seconds")).toInt(), 1, 600);
    const int total = rate * seconds;
    const client::Endpoint endpoint{parser.value(QStringLiteral("url")),
                                    parser.value(QStringLiteral("key"))};
    client::LizardApi api(endpoint);
    QString failure;
    client::SandboxInfo sandbox;
    if (!bench::createBenchSandbox(api, &sandbox, &failure)) {
        std::fprintf(stderr, "lizard-bench-activity: no sandbox: %s\n", qPrintable(failure));
        return 2;
    }

    ui::activity::ActivityPanel panel;
    panel.setApi(&api);
    panel.showSandbox(sandbox.sandboxId);
    panel.resize(1100, 800);
    panel.show(); // the tab is shown: its model follows the log
    models::ActivityListModel* model = panel.model();
    // A blocking processEvents, woken at least every 50 ms, sleeps like the app's event loop;
    // processEvents(flags, maxtime) ignores WaitForMoreEvents, and a loop around it would keep
    // the UI thread on a CPU, so that a loaded machine makes it wait for a core as a CPU hog.
    QTimer wake;
    wake.start(50);
    QElapsedTimer clock;
    clock.start();
    while (model->rowCount() == 0 && clock.elapsed() < 10000) // the sandbox's `create` entry
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);

    std::vector<qint64> rowUs(size_t(total), 0);
    int rows = 0;
    int batches = 0;
    QObject::connect(model, &models::ActivityListModel::entriesAppended, [&](int first, int last) {
        const qint64 now = nowUs();
        ++batches;
        for (int r = first; r <= last; ++r) {
            const QStringList& command = model->entry(r).argv;
            if (command.size() < 2)
                continue;
            const QString& m = command.at(1);
            bool ok = false;
            const int i =
                m.startsWith(QLatin1String("activity-bench-")) ? m.mid(15).toInt(&ok) : -1;
            if (ok && i >= 0 && i < total && rowUs[size_t(i)] == 0) {
                rowUs[size_t(i)] = now;
                ++rows;
            }
        }
    });
    bench::StallMeter meter;
    bench::CpuStallMeter busy;
    meter.start();
    busy.start();
    Agent agent(endpoint, sandbox.sandboxId, rate, total);
    agent.start();
    clock.restart();
    while ((!agent.finished() || rows < total) && clock.elapsed() < seconds * 1000 + 60000)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    QCoreApplication::processEvents();
    meter.stop();
    busy.stop();
    agent.wait();

    std::vector<double> lagsMs;
    for (int i = 0; i < total; ++i)
        if (rowUs[size_t(i)] != 0 && agent.answeredUs(i) != 0)
            lagsMs.push_back(std::max<qint64>(0, rowUs[size_t(i)] - agent.answeredUs(i)) / 1000.0);
    std::sort(lagsMs.begin(), lagsMs.end());
    const bool ok = agent.failures() == 0 && rows == total && int(lagsMs.size()) == total;
    QFile loadavg(QStringLiteral("/proc/loadavg"));
    const QByteArray load =
        loadavg.open(QIODevice::ReadOnly) ? loadavg.readLine().split(' ').value(0) : "?";
    std::printf("activity tab following %d execs/s for %d s (%d execs, %d rows in %d insertions): "
                "max event-loop stall %.1f ms (target <= %.0f ms) %s (load average %s; longest "
                "CPU burst of the UI thread %.1f ms); exec end -> row in the model: median %.1f "
                "ms, max %.1f ms\n",
                rate, seconds, total, rows, batches, meter.maxStallMs(), kTargetStallMs,
                !ok                                    ? "ERROR"
                : meter.maxStallMs() <= kTargetStallMs ? "PASS"
                                                       : "MISS",
                load.constData(), busy.maxMs(), lagsMs.empty() ? 0.0 : lagsMs[lagsMs.size() / 2],
                lagsMs.empty() ? 0.0 : lagsMs.back());
    if (!ok)
        std::fprintf(stderr, "lizard-bench-activity: %d failed execs, %d of %d rows shown%s\n",
                     agent.failures(), rows, total,
                     model->unavailableText().isEmpty()
                         ? ""
                         : qPrintable(" (" + model->unavailableText() + ")"));
    std::fflush(stdout);
    client::Unit unit;
    await<client::Unit>(
        [&](QObject* c, auto done) { return api.killSandbox(sandbox.sandboxId, c, done); }, &unit,
        &failure);
    return ok ? 0 : 1;
}
