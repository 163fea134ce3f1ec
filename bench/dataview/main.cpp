// lizard-bench-dataview: the data viewer's longest event-loop stall while scrolling a
// 1,000,000-row DataFrame from top to bottom. A real notebook page in an `interpreter` sandbox of
// the given lizard-local shows `df` (5 columns); its table is then dragged down the scroll bar in
// --steps steps, each waiting (up to 5 s) for the rows on screen to arrive from the kernel, as a
// user who stops to read would. The figure is the longest time the UI thread was busy at once.
//
//   lizard-bench-dataview --url http://127.0.0.1:7411 --key liz_... [--rows N] [--steps N]

#include "../console/benchawait.h"
#include "../console/cpustallmeter.h"
#include "../console/stallmeter.h"
#include "client/lizardapi.h"
#include "notebook/cell.h"
#include "notebook/runqueue.h"
#include "notebook/tablemodel.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/datatableview.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/tableoutputview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QLocale>
#include <QScrollBar>
#include <QTimer>
#include <cstdio>

using namespace lizard;
using lizard::bench::await;
using lizard::notebook::CellStatus;

namespace {

// Runs the event loop until pred() or ms passed; true when pred() held.
template <class Pred> bool spinUntil(Pred pred, int ms)
{
    return bench::runUntil(pred, ms, 5);
}

int scroll(ui::notebook::NotebookPage* page, qint64 rows, int steps)
{
    notebook::Cell* cell = page->document()->cell(0);
    cell->setSource(
        QStringLiteral("import pandas as pd, numpy as np\nn = %1\n"
                       "df = pd.DataFrame({'a': np.arange(n), 'b': np.arange(n) * 0.25,\n"
                       "    'c': np.where(np.arange(n) % 3 == 0, 'Lyon', 'Oslo'), 'd': "
                       "np.arange(n) % 7 == 0,\n"
                       "    'e': pd.date_range('2024-01-01', periods=n, freq='min')})\ndf")
            .arg(rows));
    page->session()->runQueue()->run(cell);
    spinUntil(
        [&] {
            return cell->status() != CellStatus::Queued && cell->status() != CellStatus::Running;
        },
        300000);
    auto* area = page->cells()->cellWidget(0)->outputs();
    auto* view =
        area->count() ? qobject_cast<ui::notebook::TableOutputView*>(area->view(0)) : nullptr;
    if (cell->status() != CellStatus::Done || !view) {
        std::fprintf(stderr, "lizard-bench-dataview: the frame did not show as a table (%s)\n",
                     area->count() ? qPrintable(area->view(0)->plainText().left(400))
                                   : "no output");
        return 1;
    }
    ui::notebook::DataTableView* table = view->table();
    notebook::TableModel* model = view->model();
    QScrollBar* bar = table->verticalScrollBar();
    const auto shownLoaded = [&] {
        const int top = table->rowAt(0), bottom = table->rowAt(table->viewport()->height() - 1);
        return top >= 0 && model->isLoaded(top) && (bottom < 0 || model->isLoaded(bottom));
    };
    // The same meters over an idle event loop first: what the machine's scheduling alone costs.
    bench::StallMeter idle;
    idle.start();
    spinUntil([] { return false; }, 3000);
    idle.stop();

    bench::StallMeter meter;
    bench::CpuStallMeter cpu;
    QElapsedTimer elapsed;
    int waitedOut = 0;
    meter.start();
    cpu.start();
    elapsed.start();
    for (int i = 0; i <= steps; ++i) {
        bar->setValue(int(qint64(bar->maximum()) * i / steps)); // as a drag of the scroll bar
        if (!spinUntil(shownLoaded, 5000))
            ++waitedOut;
    }
    const qint64 ms = elapsed.elapsed();
    meter.stop();
    cpu.stop();
    const bool ok =
        waitedOut == 0 &&
        model->data(model->index(model->rowCount() - 1, 1)).toString() == QString::number(rows - 1);
    std::printf("data viewer %s rows: max event-loop stall %.1f ms while scrolling top to bottom "
                "(target <= 16 ms): "
                "%s%s\n",
                qPrintable(QLocale(QLocale::English).toString(rows)), cpu.maxMs(),
                cpu.maxMs() <= 16 ? "PASS" : "MISS", ok ? "" : "  [FAILED: rows did not arrive]");
    std::printf("  (the UI thread's longest busy stretch, in its own CPU time; wall clock %.1f ms, "
                "and %.1f ms "
                "for an idle event loop on this machine just before: scheduling, not work)\n",
                meter.maxStallMs(), idle.maxStallMs());
    std::printf("  (%d scroll steps in %lld ms, each waiting for its rows from the kernel; %d "
                "blocks kept of %d max)\n",
                steps, static_cast<long long>(ms), model->cachedBlocks(),
                notebook::TableModel::kMaxBlocks);
    std::fflush(stdout);
    return ok ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Longest event-loop stall scrolling a 1,000,000-row DataFrame"));
    parser.addHelpOption();
    parser.addOption(
        {QStringLiteral("url"), QStringLiteral("A lizard-local URL."), QStringLiteral("url")});
    parser.addOption(
        {QStringLiteral("key"), QStringLiteral("Its API key."), QStringLiteral("key")});
    parser.addOption({QStringLiteral("rows"),
                      QStringLiteral("Rows of the frame (default 1000000)."), QStringLiteral("n"),
                      QStringLiteral("1000000")});
    parser.addOption({QStringLiteral("steps"),
                      QStringLiteral("Scroll steps top to bottom (default 200)."),
                      QStringLiteral("n"), QStringLiteral("200")});
    parser.process(app);
    if (!parser.isSet(QStringLiteral("url")) || !parser.isSet(QStringLiteral("key"))) {
        std::fprintf(stderr, "lizard-bench-dataview: needs --url and --key of a lizard-local\n");
        return 2;
    }
    const qint64 rows = qMax<qint64>(1000, parser.value(QStringLiteral("rows")).toLongLong());
    const int steps = qMax(2, parser.value(QStringLiteral("steps")).toInt());
    client::LizardApi api(
        {parser.value(QStringLiteral("url")), parser.value(QStringLiteral("key"))});
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
        std::fprintf(stderr, "lizard-bench-dataview: %s\n",
                     qPrintable(failure.isEmpty() ? "no project" : failure));
        return 2;
    }
    int rc = 1;
    {
        std::unique_ptr<ui::notebook::NotebookPage> page(
            ui::notebook::NotebookController::createPage(&api, sandbox.sandboxId));
        page->resize(1000, 800);
        page->show();
        rc = scroll(page.get(), rows, steps);
        page->document()->setClean();
    }
    client::Unit unit;
    await<client::Unit>(
        [&](QObject* c, auto d) { return api.killSandbox(sandbox.sandboxId, c, d); }, &unit,
        &failure);
    return rc;
}
