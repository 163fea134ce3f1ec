// lizard-bench-appstart: how long the real app takes from exec to its first painted window, and
// what it holds in memory once idle. Each start gets a fresh HOME whose server.json names the
// lizard-local given by --url/--key (as if one already ran for this user), so the figure is the
// app's own start. The app says when it painted (LIZARD_DESKTOP_REPORT_PAINT, app/firstpaint.h).
// The reference is a bare Qt Widgets window (this program's --hello mode) started the same way.
// It runs on whatever display Qt gets (scripts/bench.sh gives it an Xvfb when it can).
//
//   lizard-bench-appstart --url URL --key KEY [--runs 5] [--idle-s 5] [--app PATH]

#include "app/firstpaint.h"
#include "bench/preview/processmemory.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace {

// --hello: a window with one label, reporting its first paint as the app does.
int runHello()
{
    QLabel window(QStringLiteral("Hello"));
    window.resize(1100, 700);
    lizard::app::reportFirstPaint(&window, "hello: painted");
    window.show();
    return QApplication::exec();
}

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    return v.isEmpty() ? 0 : v[v.size() / 2];
}

// The app's QtWebEngine processes (it must start none when idle).
int webEngineProcesses(qint64 app)
{
    int n = 0;
    for (qint64 pid : lizard::bench::descendantsOf(app)) {
        QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (f.open(QIODevice::ReadOnly) && f.readAll().contains("QtWebEngineProcess"))
            ++n;
    }
    return n;
}

struct Start
{
    double paintedMs = -1;
    long long idleRssKb = -1;
    int webEngine = -1;
    QString error;
};

// One start of `program` in a fresh HOME; waits `idleS` seconds after the paint to read its
// memory when idleS > 0.
Start startOnce(const QString& program, const QStringList& args, const QByteArray& painted,
                const QString& url, const QString& key, int idleS)
{
    Start out;
    QTemporaryDir home;
    const QString data = home.path() + "/.local/share/lizard-local";
    QDir().mkpath(data);
    QFile keyFile(home.path() + "/api-key");
    QFile server(data + "/server.json");
    if (!keyFile.open(QIODevice::WriteOnly) || keyFile.write(key.toUtf8()) < 0 ||
        !server.open(QIODevice::WriteOnly)) {
        out.error = QStringLiteral("cannot prepare a home in ") + home.path();
        return out;
    }
    keyFile.close();
    // Any live pid will do for the app's check that the server still runs: ours.
    server.write(QStringLiteral(R"({"url": "%1", "keyFile": "%2", "pid": %3})")
                     .arg(url, keyFile.fileName())
                     .arg(QCoreApplication::applicationPid())
                     .toUtf8());
    server.close();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path() + "/.config");
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.path() + "/.local/share");
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home.path() + "/.cache");
    env.insert(QStringLiteral("LIZARD_DESKTOP_REPORT_PAINT"), QStringLiteral("1"));
    if (::geteuid() == 0) // Chromium refuses its sandbox as root (only if a preview started)
        env.insert(QStringLiteral("QTWEBENGINE_DISABLE_SANDBOX"), QStringLiteral("1"));
    QProcess p;
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.setStandardErrorFile(QProcess::nullDevice());
    QElapsedTimer clock;
    clock.start();
    p.start(program, args);
    QByteArray seen;
    while (!seen.contains(painted) && p.waitForReadyRead(30000))
        seen += p.readAllStandardOutput();
    if (!seen.contains(painted)) {
        out.error = program + " did not report a paint within 30 s";
    } else {
        out.paintedMs = double(clock.nsecsElapsed()) / 1e6;
        if (idleS > 0) {
            QThread::sleep(idleS); // nothing is asked of the app meanwhile: its idle state
            out.idleRssKb = lizard::bench::rssKb(p.processId());
            out.webEngine = webEngineProcesses(p.processId());
        }
    }
    p.terminate();
    if (!p.waitForFinished(10000)) {
        p.kill();
        p.waitForFinished();
    }
    return out;
}

void printFigure(const char* name, const char* statistic, double value, const char* unit,
                 double target, const QString& tail)
{
    std::printf("%-27s %-21s %.1f %-9s target <= %.0f %-4s %s   %s\n", name, statistic, value, unit,
                target, unit, value <= target ? "PASS" : "MISS", qPrintable(tail));
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOptions({{"hello", "internal: the reference window"},
                       {"url", "lizard-local URL", "url"},
                       {"key", "API key", "key"},
                       {"runs", "starts of each", "n", "5"},
                       {"idle-s", "seconds idle before the memory is read", "s", "5"},
                       {"app", "the lizard-desktop binary", "path"}});
    parser.process(app);
    if (parser.isSet("hello"))
        return runHello();
    const QString url = parser.value("url"), key = parser.value("key");
    if (url.isEmpty() || key.isEmpty()) {
        std::fprintf(stderr, "lizard-bench-appstart: --url and --key are required\n");
        return 2;
    }
    const QString desktop = parser.isSet("app")
                                ? parser.value("app")
                                : QCoreApplication::applicationDirPath() + "/lizard-desktop";
    const int runs = std::max(1, parser.value("runs").toInt());
    QList<double> appMs, helloMs;
    Start first;
    for (int i = 0; i < runs; ++i) { // in turns, so both see the same host
        const Start a = startOnce(desktop, {}, "lizard-desktop: painted", url, key,
                                  i == 0 ? parser.value("idle-s").toInt() : 0);
        const Start h = startOnce(QCoreApplication::applicationFilePath(), {"--hello"},
                                  "hello: painted", url, key, 0);
        for (const Start* s : {&a, &h}) {
            if (!s->error.isEmpty()) {
                std::fprintf(stderr, "lizard-bench-appstart: %s\n", qPrintable(s->error));
                return 2;
            }
        }
        if (i == 0)
            first = a;
        appMs << a.paintedMs;
        helloMs << h.paintedMs;
    }
    const QString platform = QGuiApplication::platformName();
    printFigure("app start -> first paint", qPrintable(QStringLiteral("median of %1").arg(runs)),
                median(appMs), "ms", 300,
                QStringLiteral("reference a bare Qt Widgets window: %1 ms (ratio %2x)   [%3; "
                               "max %4 ms]")
                    .arg(median(helloMs), 0, 'f', 1)
                    .arg(median(appMs) / std::max(0.001, median(helloMs)), 0, 'f', 2)
                    .arg(platform)
                    .arg(*std::max_element(appMs.begin(), appMs.end()), 0, 'f', 1));
    printFigure("app idle RSS",
                qPrintable(QStringLiteral("%1 s after the paint").arg(parser.value("idle-s"))),
                double(first.idleRssKb) / 1024.0, "MB", 80,
                QStringLiteral("[QtWebEngine processes of the app: %1; %2]")
                    .arg(first.webEngine)
                    .arg(platform));
    std::fflush(stdout);
    return 0;
}
