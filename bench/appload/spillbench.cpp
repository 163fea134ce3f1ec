// A cell that prints a lot: stream events enter the notebook where the runner's do (the run
// queue, from CodeRunner::streamReceived), with the page and its views shown and autosave on,
// as in the app. Prints the process's resident memory before and after, and what the model
// keeps in memory.

#include "../console/benchawait.h"
#include "appbench.h"
#include "notebook/coderunner.h"
#include "notebook/recoverywatcher.h"
#include "notebook/runqueue.h"
#include "notebook/spillfile.h"
#include "notebook/streamtext.h"
#include "ui/notebook/notebookpage.h"

#include <QCoreApplication>
#include <QTemporaryDir>
#include <cstdio>

namespace lizard::bench {

using namespace lizard::notebook;

namespace {

// Stands for ClientCodeRunner: the benchmark sends the events the runner's stream would.
class FeedRunner : public CodeRunner
{
public:
    void run(const QString&, const QHash<QString, QString>&) override {}
    void interrupt() override { emit done(std::nullopt); }
};

} // namespace

int runSpillBench(qint64 megabytes, bool quick)
{
    QTemporaryDir dir;
    auto* runner = new FeedRunner;
    auto page =
        std::make_unique<ui::notebook::NotebookPage>(QStringLiteral("sbx-bench"), runner, nullptr);
    page->session()->enableRecovery(RecoveryStore(dir.filePath(QStringLiteral("recovery"))));
    page->resize(1000, 800);
    page->show();
    QCoreApplication::processEvents();
    Cell* cell = page->document()->cell(0);
    cell->setSource(QStringLiteral("for i in range(N): print(f'{i:>12} ' + 'x' * 60)"));
    page->session()->runQueue()->run(cell);
    const qint64 before = residentBytes();

    // 8 KiB per event, as the runner batches a fast stdout; 74-byte lines.
    const qint64 total = megabytes << 20;
    const QString filler(60, u'x');
    qint64 sent = 0;
    qint64 line = 0;
    qint64 peakModel = 0;
    QElapsedTimer clock;
    clock.start();
    while (sent < total) {
        QString chunk;
        chunk.reserve(8300);
        while (chunk.size() < 8192)
            chunk += QStringLiteral("%1 ").arg(line++, 12) + filler + u'\n';
        sent += chunk.size();
        emit runner->streamReceived(StreamOutput{QStringLiteral("stdout"), chunk});
        peakModel = qMax(peakModel, cell->outputMemoryBytes());
        QCoreApplication::processEvents(); // repaints, autosave timer: what the loop does between
                                           // events
    }
    emit runner->done(1);
    bench::runFor(200);
    const double seconds = clock.elapsed() / 1000.0;
    const qint64 after = residentBytes();
    const auto& out = std::get<StreamOutput>(cell->outputs().at(0));
    const bool complete = streamLength(out) == sent && out.spilled && out.spilled->bytes == sent;
    const double growthMb = (after - before) / 1048576.0;
    std::printf("spilled output: app RSS %.0f MB after a cell printed %lld MB%s (%.0f MB before; "
                "growth %.0f MB, target < 100 MB) %s\n",
                after / 1048576.0, static_cast<long long>(megabytes),
                quick ? " (quick: 1 GB without --quick)" : "", before / 1048576.0, growthMb,
                growthMb < 100 ? "PASS" : "MISS");
    std::printf(
        "  model keeps %.2f MB in memory (peak %.2f MB), the rest in %s; %lld lines in %.1f s%s\n",
        cell->outputMemoryBytes() / 1048576.0, peakModel / 1048576.0,
        out.spilled ? qPrintable(out.spilled->file->path()) : "memory",
        static_cast<long long>(line), seconds, complete ? "" : "  [FAILED: the stream lost bytes]");
    std::fflush(stdout);
    page->session()->recoveryWatcher()->waitForWrites(120000);
    page->session()->recoveryWatcher()->close();
    return complete ? 0 : 1;
}

} // namespace lizard::bench
