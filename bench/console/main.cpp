// lizard-bench-console: feeds 100k lines into the console widget offscreen and reports the
// longest event-loop stall. Without arguments the lines come in batches shaped like the
// ExecStream's (one batch per 16 KiB network chunk of SSE events); with --url and --key they
// come from `seq 100000` in a real sandbox.
//
//   lizard-bench-console [--lines N] [--url http://127.0.0.1:7411 --key liz_...]

#include "client/lizardapi.h"
#include "models/consolesession.h"
#include "stallmeter.h"
#include "ui/consoleview.h"
#include "ui/consolewidget.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTextBlock>
#include <QTimer>
#include <cstdio>
#include <functional>

using namespace lizard;
using client::OutputLine;
using client::OutputStream;

namespace {

void report(const char* what, int lines, double stallMs, qint64 elapsedMs, bool ok)
{
    std::printf("console %dk lines%s: max event-loop stall %.1f ms (target < 100 ms)%s\n",
                lines / 1000, what, stallMs, ok ? "" : "  [FAILED: see above]");
    std::printf("  (all lines shown after %lld ms)\n", static_cast<long long>(elapsedMs));
    std::fflush(stdout);
}

// Batches as ExecStream delivers them: one per received chunk. A 16 KiB chunk of
// `data: {"stream":"stdout","line":"12345"}\n\n` events holds about 360 lines.
int runSynthetic(int total)
{
    ui::ConsoleWidget console;
    console.resize(1000, 600);
    console.show();
    models::OutputLog log; // what ConsoleSession writes for every batch
    bench::StallMeter meter;
    QElapsedTimer elapsed;
    int next = 0;
    constexpr int kChunkBytes = 16 * 1024;
    QTimer feeder;
    feeder.setInterval(0); // as fast as the network could deliver
    QObject::connect(&feeder, &QTimer::timeout, [&] {
        QList<OutputLine> batch;
        int bytes = 0;
        while (next < total && bytes < kChunkBytes) {
            const QString text = QString::number(next + 1);
            bytes += 40 + int(text.size());
            batch.append({next % 1000 == 999 ? OutputStream::Stderr : OutputStream::Stdout, text});
            ++next;
        }
        log.append(batch);
        console.view()->enqueue(batch);
        if (next >= total)
            feeder.stop();
    });
    meter.start();
    elapsed.start();
    feeder.start();
    while (feeder.isActive() || console.view()->pendingLines() > 0)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    const qint64 ms = elapsed.elapsed();
    meter.stop();
    const QString last = console.view()->document()->lastBlock().text();
    const bool ok = last == QString::number(total) && log.lineCount() == total;
    if (!ok)
        std::fprintf(stderr, "last line shown: %s, lines logged: %lld\n", qPrintable(last),
                     static_cast<long long>(log.lineCount()));
    report("", total, meter.maxStallMs(), ms, ok);
    return ok ? 0 : 1;
}

int runLive(const QString& url, const QString& key, int total)
{
    client::LizardApi api({url, key});
    QString projectId;
    QString sandboxId;
    QString failure;
    bool done = false;
    const auto wait = [&] {
        while (!done)
            QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        done = false;
    };
    api.listProjects(&api, [&](client::Outcome<QList<client::Project>> o) {
        if (!o || o.value().isEmpty())
            failure = o ? QStringLiteral("no project") : o.error().toDisplayString();
        else
            projectId = o.value().first().id;
        done = true;
    });
    wait();
    if (failure.isEmpty()) {
        client::CreateSandboxRequest req;
        req.projectId = projectId;
        req.timeoutMs = 300000;
        api.createSandbox(req, &api, [&](client::Outcome<client::SandboxInfo> o) {
            if (o)
                sandboxId = o.value().sandboxId;
            else
                failure = o.error().toDisplayString();
            done = true;
        });
        wait();
    }
    if (!failure.isEmpty()) {
        std::fprintf(stderr, "lizard-bench-console: %s\n", qPrintable(failure));
        return 2;
    }
    int exitCode = -1;
    {
        ui::ConsoleWidget console;
        console.resize(1000, 600);
        console.show();
        models::ConsoleSession session(&api, sandboxId);
        console.setSession(&session);
        bench::StallMeter meter;
        QElapsedTimer elapsed;
        QObject::connect(&session, &models::ConsoleSession::commandFinished, [&](int code) {
            exitCode = code;
            done = true;
        });
        QObject::connect(&session, &models::ConsoleSession::commandFailed,
                         [&](const client::ApiError& e) {
                             failure = e.toDisplayString();
                             done = true;
                         });
        qsizetype batches = 0;
        qsizetype biggest = 0;
        QObject::connect(&session, &models::ConsoleSession::output,
                         [&](const QList<OutputLine>& lines) {
                             ++batches;
                             biggest = qMax(biggest, lines.size());
                         });
        meter.start();
        elapsed.start();
        session.run(QStringLiteral("seq %1").arg(total));
        wait();
        while (console.view()->pendingLines() > 0)
            QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        const qint64 ms = elapsed.elapsed();
        meter.stop();
        const bool ok =
            failure.isEmpty() && exitCode == 0 && session.log().lineCount() == total + 2;
        if (!ok)
            std::fprintf(stderr, "exit %d, lines logged %lld, %s\n", exitCode,
                         static_cast<long long>(session.log().lineCount()), qPrintable(failure));
        report(" (real lizard-local, seq)", total, meter.maxStallMs(), ms, ok);
        std::printf("  (%lld batches from the client, the biggest %lld lines)\n",
                    static_cast<long long>(batches), static_cast<long long>(biggest));
        exitCode = ok ? 0 : 1;
    }
    api.killSandbox(sandboxId, &api, [&](client::Outcome<client::Unit>) { done = true; });
    wait();
    return exitCode;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Longest event-loop stall of the console under 100k lines"));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("lines"), QStringLiteral("Lines to feed (default 100000)."),
                      QStringLiteral("n"), QStringLiteral("100000")});
    parser.addOption({QStringLiteral("url"), QStringLiteral("A lizard-local URL for the live run."),
                      QStringLiteral("url")});
    parser.addOption(
        {QStringLiteral("key"), QStringLiteral("Its API key."), QStringLiteral("key")});
    parser.process(app);
    const int lines = qMax(1, parser.value(QStringLiteral("lines")).toInt());
    int rc = runSynthetic(lines);
    if (parser.isSet(QStringLiteral("url"))) {
        if (!parser.isSet(QStringLiteral("key"))) {
            std::fprintf(stderr, "lizard-bench-console: --url needs --key\n");
            return 2;
        }
        rc = qMax(rc, runLive(parser.value(QStringLiteral("url")),
                              parser.value(QStringLiteral("key")), lines));
    }
    return rc;
}
