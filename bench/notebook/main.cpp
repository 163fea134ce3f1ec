// lizard-bench-notebook: the notebook's longest event-loop stall while a cell prints 100k lines.
// Without arguments the lines are fed to a cell in chunks shaped like the runner's stream events;
// with --url and --key a real notebook page runs `for i in range(N): print(i)` in an
// `interpreter` sandbox of that lizard-local and the figure is measured on the live stream.
//
//   lizard-bench-notebook [--lines N] [--url http://127.0.0.1:7411 --key liz_...]

#include "../console/benchawait.h"
#include "../console/stallmeter.h"
#include "client/lizardapi.h"
#include "largenotebook.h"
#include "notebook/cell.h"
#include "notebook/runqueue.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/streamoutputview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QScrollArea>
#include <QTimer>
#include <cstdio>

using namespace lizard;
using lizard::bench::await;
using lizard::notebook::CellStatus;
using lizard::ui::notebook::StreamOutputView;

namespace {

void report(const char* what, int lines, double stallMs, qint64 elapsedMs, bool ok)
{
    std::printf("notebook %dk lines%s: max event-loop stall %.1f ms (target <= 16 ms) %s%s\n",
                lines / 1000, what, stallMs, stallMs <= 16 ? "PASS" : "MISS",
                ok ? "" : "  [FAILED: see above]");
    std::printf("  (head and tail shown after %lld ms)\n", static_cast<long long>(elapsedMs));
    std::fflush(stdout);
}

bool checkView(ui::notebook::OutputArea* area, int total)
{
    auto* view = area->count() > 0 ? qobject_cast<StreamOutputView*>(area->view(0)) : nullptr;
    if (!view) {
        std::fprintf(stderr, "no stream output shown\n");
        return false;
    }
    view->flushRender();
    const QString text = view->plainText();
    const bool ok = view->lineCount() == total && text.endsWith(QString::number(total - 1));
    if (!ok)
        std::fprintf(stderr, "lines %lld, shown ends with: %s\n",
                     static_cast<long long>(view->lineCount()), qPrintable(text.right(40)));
    return ok;
}

// Chunks as the runner delivers stdout: one stream event per flushed batch (~8 KiB).
int runSynthetic(int total)
{
    notebook::Cell cell(notebook::CellData{});
    // In a scrolled view of a window's size, as a notebook shows a cell's output (a window of
    // the output's own height would paint thousands of pixels no screen shows).
    QScrollArea scroll;
    scroll.setWidgetResizable(true);
    auto* area = new ui::notebook::OutputArea(&cell);
    scroll.setWidget(area);
    scroll.resize(1000, 700);
    scroll.show();
    // The app is running: its fonts are loaded and an output has been shown before.
    cell.appendOutput(notebook::StreamOutput{QStringLiteral("stdout"), QStringLiteral("ready\n")});
    bench::runFor(2 * StreamOutputView::renderDelayMs);
    cell.clearOutputs();
    bench::runFor(50);
    bench::StallMeter meter;
    QElapsedTimer elapsed;
    int next = 0;
    QTimer feeder;
    feeder.setInterval(0);
    QObject::connect(&feeder, &QTimer::timeout, [&] {
        QString chunk;
        while (next < total && chunk.size() < 8192)
            chunk += QString::number(next++) + u'\n';
        cell.appendOutput(notebook::StreamOutput{QStringLiteral("stdout"), chunk});
        if (next >= total)
            feeder.stop();
    });
    meter.start();
    elapsed.start();
    feeder.start();
    while (feeder.isActive())
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    bench::runFor(2 * StreamOutputView::renderDelayMs);
    const qint64 ms = elapsed.elapsed();
    meter.stop();
    const bool ok = checkView(area, total);
    report("", total, meter.maxStallMs(), ms, ok);
    return ok ? 0 : 1;
}

int runLive(const QString& url, const QString& key, int total)
{
    client::LizardApi api({url, key});
    QString failure;
    QList<client::Project> projects;
    client::SandboxInfo sandbox;
    if (await<QList<client::Project>>([&](QObject* c, auto d) { return api.listProjects(c, d); },
                                      &projects, &failure) &&
        !projects.isEmpty()) {
        client::CreateSandboxRequest req;
        req.projectId = projects.first().id;
        req.templateName = QStringLiteral("interpreter");
        req.timeoutMs = 600000;
        await<client::SandboxInfo>([&](QObject* c, auto d) { return api.createSandbox(req, c, d); },
                                   &sandbox, &failure);
    }
    if (!failure.isEmpty() || sandbox.sandboxId.isEmpty()) {
        std::fprintf(stderr, "lizard-bench-notebook: %s\n",
                     qPrintable(failure.isEmpty() ? "no project" : failure));
        return 2;
    }
    int rc = 1;
    {
        std::unique_ptr<ui::notebook::NotebookPage> page(
            ui::notebook::NotebookController::createPage(&api, sandbox.sandboxId));
        page->resize(1000, 800);
        page->show();
        notebook::Cell* cell = page->document()->cell(0);
        const auto runAndWait = [&](const QString& code) {
            cell->setSource(code);
            page->session()->runQueue()->run(cell);
            while (cell->status() == CellStatus::Queued || cell->status() == CellStatus::Running)
                QCoreApplication::processEvents(QEventLoop::AllEvents |
                                                QEventLoop::WaitForMoreEvents);
        };
        runAndWait(QStringLiteral("1+1")); // start the kernel outside the measurement
        cell->clearOutputs();
        bench::StallMeter meter;
        QElapsedTimer elapsed;
        meter.start();
        elapsed.start();
        runAndWait(QStringLiteral("for i in range(%1): print(i)").arg(total));
        bench::runFor(2 * StreamOutputView::renderDelayMs);
        const qint64 ms = elapsed.elapsed();
        meter.stop();
        const bool ok = cell->status() == CellStatus::Done &&
                        checkView(page->cells()->cellWidget(0)->outputs(), total);
        report(" (real lizard-local, python print)", total, meter.maxStallMs(), ms, ok);
        rc = ok ? 0 : 1;
        page->document()->setClean();
    }
    client::Unit unit;
    await<client::Unit>(
        [&](QObject* c, auto d) { return api.killSandbox(sandbox.sandboxId, c, d); }, &unit,
        &failure);
    return rc;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Longest event-loop stall of a notebook cell printing 100k lines"));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("lines"), QStringLiteral("Lines to print (default 100000)."),
                      QStringLiteral("n"), QStringLiteral("100000")});
    parser.addOption({QStringLiteral("url"), QStringLiteral("A lizard-local URL for the live run."),
                      QStringLiteral("url")});
    parser.addOption(
        {QStringLiteral("key"), QStringLiteral("Its API key."), QStringLiteral("key")});
    parser.process(app);
    const int lines = qMax(1000, parser.value(QStringLiteral("lines")).toInt());
    int rc = runSynthetic(lines);
    rc = qMax(rc, bench::runLargeNotebooks(500, 10));
    if (parser.isSet(QStringLiteral("url"))) {
        if (!parser.isSet(QStringLiteral("key"))) {
            std::fprintf(stderr, "lizard-bench-notebook: --url needs --key\n");
            return 2;
        }
        rc = qMax(rc, runLive(parser.value(QStringLiteral("url")),
                              parser.value(QStringLiteral("key")), lines));
    }
    return rc;
}
