#include "viewerbench.h"

#include "benchawait.h"
#include "probe.h"
#include "processmemory.h"
#include "stats.h"

#include <QCoreApplication>
#include <QWidget>
#include <cstdio>

namespace lizard::bench {

namespace {

constexpr double kTargetStartMs = 3000;
constexpr double kTargetInputMs = 150;
// Where the root menu is opened, in desktop pixels, and the region watched for it: right of and
// below the pointer, where the menu's top-left corner lands, clear of the pointer's arrow.
constexpr int kMenuX = 200, kMenuY = 300;
const QRect kMenuRegion(kMenuX + 14, kMenuY + 6, 60, 30);

Figure errorFigure(const std::string& name, const QString& why)
{
    Figure f{.name = name};
    f.error = why.toStdString();
    return f;
}

std::string label(const Viewer& v, const char* what)
{
    return std::string(what) + ", " + v.name().toStdString();
}

void saveShot(const DesktopBenchOptions& options, const Viewer& v, const char* what,
              const QImage& shot)
{
    if (!options.shotsDir.isEmpty())
        shot.save(options.shotsDir + "/" + v.name() + "-" + what + ".png");
}

// Stops the desktop, shows a new viewer, starts the desktop and times the first grab whose
// centre shows the desktop. Returns the viewer (showing it) or null with *why.
std::unique_ptr<Viewer> startOnce(client::LizardApi& api, const QString& id,
                                  const std::function<std::unique_ptr<Viewer>()>& make,
                                  const DesktopBenchOptions& options, double* ms, double* answerMs,
                                  QString* why)
{
    QString failure;
    client::Unit unit;
    if (!await<client::Unit>([&](QObject* c, auto done) { return api.stopDesktop(id, c, done); },
                             &unit, &failure)) {
        *why = QStringLiteral("stop: ") + failure;
        return nullptr;
    }
    client::DesktopInfo stopped;
    if (!await<client::DesktopInfo>(
            [&](QObject* c, auto done) { return api.desktopInfo(id, c, done); }, &stopped,
            &failure)) {
        *why = QStringLiteral("info: ") + failure;
        return nullptr;
    }
    std::unique_ptr<Viewer> viewer = make();
    if (!viewer->prepare(stopped)) {
        *why = viewer->error();
        return nullptr;
    }
    runFor(300); // the tab is shown and idle when Start is pressed
    GrabPoller poller(viewer->widget());
    QObject ctx;
    QElapsedTimer t;
    t.start();
    const auto answered = [&](client::Outcome<client::DesktopInfo> o) {
        if (*answerMs >= 0)
            return;
        *answerMs = msOf(t);
        if (o)
            viewer->show(o.value());
        else
            failure = o.error().toDisplayString();
    };
    *answerMs = -1;
    if (viewer->startsDesktop())
        viewer->startDesktop(answered);
    else
        api.startDesktop(id, QSize(), &ctx, answered);
    *ms = poller.pollUntil(
        t, [&](const QImage& g) { return !failure.isEmpty() || centreShowsDesktop(g); }, 30000, 10);
    if (*ms < 0 || !failure.isEmpty()) {
        *why = !failure.isEmpty()
                   ? QStringLiteral("start: ") + failure
                   : QStringLiteral("no desktop shown after 30 s ") + viewer->error();
        saveShot(options, *viewer, "failed-start", poller.last());
        return nullptr;
    }
    saveShot(options, *viewer, "first-frame", poller.last());
    return viewer;
}

double execMs(client::LizardApi& api, const QString& id, const QString& cmd, QString* failure)
{
    QElapsedTimer t;
    t.start();
    client::ExecResult r;
    if (!await<client::ExecResult>(
            [&](QObject* c, auto done) { return api.exec(id, cmd, {}, c, done); }, &r, failure))
        return -1;
    if (r.exitCode != 0)
        *failure = cmd + QStringLiteral(": exit %1 %2").arg(r.exitCode).arg(r.stderrText);
    return failure->isEmpty() ? msOf(t) : -1;
}

// xdotool opens openbox's root menu; the time until the viewer shows it, and each exec's answer.
bool measureInput(client::LizardApi& api, const QString& id, Viewer& viewer,
                  const DesktopBenchOptions& options, std::vector<Figure>* figures)
{
    GrabPoller poller(viewer.widget());
    QString failure;
    const QString move = QStringLiteral("xdotool mousemove %1 %2").arg(kMenuX).arg(kMenuY);
    if (execMs(api, id, move, &failure) < 0) {
        figures->push_back(errorFigure(label(viewer, "xdotool->visible"), failure));
        return false;
    }
    runFor(500);
    const QImage shown = poller.grab();
    const QRect screen = desktopRect(shown);
    const double scale = double(screen.width()) / 1280.0; // the default desktop size
    const QRect region(screen.x() + qRound(kMenuRegion.x() * scale),
                       screen.y() + qRound(kMenuRegion.y() * scale),
                       qRound(kMenuRegion.width() * scale), qRound(kMenuRegion.height() * scale));
    const QImage before = shown.copy(region);
    std::vector<double> visible, answered;
    for (int i = 0; i < options.inputRuns && failure.isEmpty(); ++i) {
        QElapsedTimer t;
        t.start();
        QObject ctx;
        bool done = false;
        api.exec(id, move + QStringLiteral(" click 3"), {}, &ctx,
                 [&](client::Outcome<client::ExecResult> o) {
                     if (!o || o.value().exitCode != 0)
                         failure = QStringLiteral("xdotool click failed");
                     answered.push_back(msOf(t));
                     done = true;
                 });
        const double ms = poller.pollUntil(
            t, [&](const QImage& g) { return regionChanged(g, region, before); }, 5000, 5);
        if (i == 0)
            saveShot(options, viewer, "menu", poller.last());
        runUntil([&] { return done; }, 30000);
        if (ms < 0 && failure.isEmpty())
            failure = QStringLiteral("the menu was not seen in 5 s");
        visible.push_back(ms);
        if (execMs(api, id, QStringLiteral("xdotool key Escape"), &failure) < 0)
            break;
        QElapsedTimer closing;
        closing.start();
        if (poller.pollUntil(
                closing, [&](const QImage& g) { return !regionChanged(g, region, before); }, 5000,
                20) < 0 &&
            failure.isEmpty())
            failure = QStringLiteral("the menu did not close in 5 s");
        runFor(100);
    }
    if (!failure.isEmpty()) {
        figures->push_back(errorFigure(label(viewer, "xdotool->visible"), failure));
        return false;
    }
    char note[160];
    std::snprintf(note, sizeof note,
                  "max %.1f ms; a grab costs %.1f ms (mean of %d), polled every 5 ms",
                  quantile(visible, 1.0), poller.meanGrabMs(), poller.grabs());
    figures->push_back(Figure{.name = label(viewer, "xdotool->visible"),
                              .statistic = "median of " + std::to_string(visible.size()),
                              .unit = "ms",
                              .value = median(visible),
                              .target = kTargetInputMs,
                              .reference = Reference{"exec answer (median)", median(answered)},
                              .note = note});
    return true;
}

// % of one core spent by this process and its descendants over `seconds`; *children: how many.
double cpuPercent(int seconds, qsizetype* children)
{
    QElapsedTimer t;
    t.start();
    const double before = treeCpuMs();
    runFor(seconds * 1000);
    *children = descendantsOf(QCoreApplication::applicationPid()).size();
    return (treeCpuMs() - before) * 100.0 / msOf(t);
}

} // namespace

bool measureViewer(client::LizardApi& api, const QString& id,
                   const std::function<std::unique_ptr<Viewer>()>& make,
                   const DesktopBenchOptions& options, std::vector<Figure>* figures)
{
    std::vector<double> starts, answers;
    std::unique_ptr<Viewer> viewer;
    QString why;
    const std::string name = make()->name().toStdString(); // a viewer does nothing until prepared
    for (int i = 0; i < options.startRuns; ++i) {
        viewer.reset();
        double ms = -1, answerMs = -1;
        viewer = startOnce(api, id, make, options, &ms, &answerMs, &why);
        if (!viewer)
            break;
        starts.push_back(ms);
        answers.push_back(answerMs);
    }
    if (!viewer) {
        figures->push_back(errorFigure("first frame, " + name, why));
        return false;
    }
    figures->push_back(Figure{.name = label(*viewer, "first frame"),
                              .statistic = "median of " + std::to_string(starts.size()),
                              .unit = "ms",
                              .value = median(starts),
                              .target = kTargetStartMs,
                              .reference = Reference{"POST /desktop answered", median(answers)},
                              .note = spreadNote(starts)});
    bool ok = measureInput(api, id, *viewer, options, figures);
    runFor(1000); // the menu's last repaint and the viewer settle
    qsizetype children = 0, childrenWithout = 0;
    const double shown = cpuPercent(options.cpuSeconds, &children);
    const std::string viewerName = label(*viewer, "CPU static desktop");
    viewer.reset();
    runFor(1000);
    const double without = cpuPercent(options.cpuSeconds, &childrenWithout);
    figures->push_back(Figure{.name = viewerName,
                              .statistic = std::to_string(options.cpuSeconds) + " s, % of a core",
                              .unit = "%",
                              .value = shown,
                              .hasTarget = false,
                              .reference = Reference{"no viewer", without},
                              .note = "this process and its " + std::to_string(children) +
                                      " child processes (" + std::to_string(childrenWithout) +
                                      " without the viewer)"});
    return ok;
}

} // namespace lizard::bench
