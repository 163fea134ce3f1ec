// lizard-bench-preview: what the lazy QtWebEngine saves. Prints
//   - the time from starting the process to the main window shown (median of --runs starts of
//     this program in --child mode, which builds the app's MainWindow and shows it),
//   - the app's resident memory then, and whether QtWebEngine is loaded (it must not be),
//   - with --url/--key: the memory after one preview (a page served by python3 -m http.server
//     in a new sandbox, opened through the Ports panel), of the app process and with its
//     QtWebEngine child processes.
//
//   lizard-bench-preview [--runs 5] [--url http://127.0.0.1:7411 --key liz_...]

#include "../console/benchawait.h"
#include "previewscenario.h"
#include "processmemory.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QProcess>
#include <QWindow>
#include <algorithm>
#include <cstdio>

using namespace lizard;

namespace {

// Child mode: show the window, report, then (with a server) open one preview and report again.
int runChild(const QString& url, const QString& key)
{
    ui::MainWindow window;
    window.show();
    bench::runUntil([&] { return window.windowHandle() && window.windowHandle()->isExposed(); },
                    30000);
    QCoreApplication::processEvents();
    std::printf("shown\n");
    std::printf("rss %lld webengine %s\n",
                static_cast<long long>(bench::rssKb(QCoreApplication::applicationPid())),
                bench::libraryMapped("libQt6WebEngineCore") ? "loaded" : "not-loaded");
    std::fflush(stdout);
    if (url.isEmpty())
        return 0;
    return bench::runPreviewScenario(window, url, key);
}

qint64 median(QList<qint64> v)
{
    std::sort(v.begin(), v.end());
    return v.isEmpty() ? 0 : v[v.size() / 2];
}

int runParent(int runs, const QString& url, const QString& key)
{
    QList<qint64> startMs;
    QString last;
    for (int i = 0; i < runs; ++i) {
        const bool withPreview = i == runs - 1 && !url.isEmpty();
        QStringList args{QStringLiteral("--child")};
        if (withPreview)
            args << QStringLiteral("--url") << url << QStringLiteral("--key") << key;
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        QElapsedTimer t;
        t.start();
        child.start(QCoreApplication::applicationFilePath(), args);
        QByteArray out;
        while (!out.contains("shown\n") && child.waitForReadyRead(30000))
            out += child.readAll();
        if (!out.contains("shown\n")) {
            std::fprintf(stderr, "lizard-bench-preview: the window was not shown: %s\n",
                         out.constData());
            child.kill();
            child.waitForFinished();
            return 2;
        }
        startMs.append(t.elapsed());
        child.waitForFinished(withPreview ? 300000 : 30000);
        out += child.readAll();
        last = QString::fromUtf8(out);
        if (child.exitStatus() != QProcess::NormalExit || child.exitCode() != 0) {
            std::fprintf(stderr, "lizard-bench-preview: child failed (%d):\n%s\n", child.exitCode(),
                         out.constData());
            return 2;
        }
    }
    long long rss = 0;
    char engine[32] = {};
    for (const QString& line : last.split(QLatin1Char('\n')))
        if (line.startsWith(QLatin1String("rss ")))
            std::sscanf(line.toUtf8().constData(), "rss %lld webengine %31s", &rss, engine);
    std::printf("preview: startup to main window shown %lld ms (median of %d starts; QtWebEngine "
                "%s at startup)\n",
                static_cast<long long>(median(startMs)), runs, engine);
    std::printf("preview: memory without a preview: %.1f MB RSS\n", rss / 1024.0);
    for (const QString& line : last.split(QLatin1Char('\n')))
        if (line.startsWith(QLatin1String("preview: ")))
            std::printf("%s\n", qPrintable(line));
    if (url.isEmpty())
        std::printf("preview: memory after one preview: not measured (needs --url and --key)\n");
    std::fflush(stdout);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOptions({{"child", "internal: the measured app"},
                       {"runs", "starts to measure", "n", "5"},
                       {"url", "lizard-local URL (for the preview figure)", "url"},
                       {"key", "API key", "key"}});
    parser.process(app);
    const QString url = parser.value("url");
    const QString key = parser.value("key");
    if (parser.isSet("child"))
        return runChild(url, key);
    return runParent(qMax(1, parser.value("runs").toInt()), url, key);
}
