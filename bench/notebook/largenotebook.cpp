#include "largenotebook.h"

#include "../console/benchawait.h"
#include "../console/stallmeter.h"
#include "client/lizardapi.h"
#include "notebook/notebooksession.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookpage.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <cstdio>
#include <memory>
#include <vector>

namespace lizard::bench {

namespace {

// An .ipynb of `cells` cells as people write them: code of a few lines with a short stream
// output, a markdown cell every fifth.
QByteArray notebookJson(int cells)
{
    QJsonArray list;
    for (int i = 0; i < cells; ++i) {
        QJsonObject cell;
        if (i % 5 == 4) {
            cell = {
                {"cell_type", "markdown"},
                {"metadata", QJsonObject{}},
                {"source",
                 QStringLiteral("## Step %1\n\nWhat this part does, in *a few* words.").arg(i)}};
        } else {
            QString code;
            for (int l = 0; l < 6; ++l)
                code += QStringLiteral("value_%1_%2 = sum(range(%2)) * %1\n").arg(i).arg(l);
            code += QStringLiteral("print(value_%1_5)").arg(i);
            cell = {
                {"cell_type", "code"},
                {"metadata", QJsonObject{}},
                {"execution_count", i + 1},
                {"source", code},
                {"outputs", QJsonArray{QJsonObject{{"output_type", "stream"},
                                                   {"name", "stdout"},
                                                   {"text", QStringLiteral("%1\n").arg(i * 10)}}}}};
        }
        list.append(cell);
    }
    const QJsonObject nb{
        {"nbformat", 4},
        {"nbformat_minor", 5},
        {"metadata", QJsonObject{{"kernelspec", QJsonObject{{"name", "python3"},
                                                            {"language", "python"},
                                                            {"display_name", "Python 3"}}}}},
        {"cells", list}};
    return QJsonDocument(nb).toJson(QJsonDocument::Compact);
}

void print(const char* what, double stallMs, const QString& detail)
{
    std::printf("%s: max event-loop stall %.1f ms (target <= 16 ms) %s  [%s]\n", what, stallMs,
                stallMs <= 16 ? "PASS" : "MISS", qPrintable(detail));
    std::fflush(stdout);
}

} // namespace

int runLargeNotebooks(int cells, int notebooks)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.ipynb"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(notebookJson(cells)) < 0)
        return 2;
    file.close();
    // No server: the pages only show what the file holds (nothing runs).
    client::LizardApi api(
        client::Endpoint{QStringLiteral("http://127.0.0.1:9"), QStringLiteral("liz_bench")});
    QStackedWidget stack;
    stack.resize(1000, 800);
    stack.show();
    // What the app's window has made before a notebook is opened: a toolbar (the sandbox
    // panel's), whose extension button's icon loads Qt's image format plugins once a process.
    delete new QToolBar(&stack);
    runFor(50);

    // Open: from the request to the page painted, as File > Open does it
    // (NotebookController::openFile): the page made, the file read and parsed on a pool thread,
    // the cells taken in by the document (with the first screen of widgets), the page shown in
    // the next turn; the other cells' widgets are made while the loop turns. The stall is the
    // longest turn over all of that.
    StallMeter meter;
    QElapsedTimer elapsed;
    meter.start();
    elapsed.start();
    ui::notebook::NotebookPage* big =
        ui::notebook::NotebookController::createPage(&api, QStringLiteral("sb_bench"));
    qint64 readMs = -1;
    QString failure;
    big->session()->openInBackground(path, [&](lizard::notebook::MaybeError failed) {
        readMs = elapsed.elapsed();
        if (failed) {
            failure = failed->message();
            return;
        }
        QTimer::singleShot(0, big, [&] {
            stack.addWidget(big);
            stack.setCurrentWidget(big);
        });
    });
    for (int waited = 0; readMs < 0 && waited < 30000; waited += 5)
        runFor(5);
    if (readMs < 0 || !failure.isEmpty()) {
        std::fprintf(stderr, "open %s: %s\n", qPrintable(path),
                     qPrintable(failure.isEmpty() ? QStringLiteral("no answer") : failure));
        return 2;
    }
    runFor(50);
    const int madeAtFirst = big->cells()->findChildren<ui::notebook::CellWidget*>().size();
    for (int waited = 0; !big->cells()->isComplete() && waited < 60000; waited += 10)
        runFor(10);
    const qint64 completeMs = elapsed.elapsed();
    runFor(100);
    meter.stop();
    print(qPrintable(QStringLiteral("notebook %1 cells, open").arg(cells)), meter.maxStallMs(),
          QStringLiteral("%1 cells; %2 cell widgets made 50 ms after the file was in (read and "
                         "parsed off the UI thread: in after %3 ms), all %4 after %5 ms")
              .arg(big->cells()->count())
              .arg(madeAtFirst)
              .arg(readMs)
              .arg(big->cells()->findChildren<ui::notebook::CellWidget*>().size())
              .arg(completeMs));

    // Scroll top to bottom in wheel-sized steps, each step given its frame.
    QScrollBar* bar = big->cells()->verticalScrollBar();
    StallMeter scroll;
    scroll.start();
    int steps = 0;
    for (int v = 0; v <= bar->maximum(); v += 120, ++steps) {
        bar->setValue(v);
        runFor(4);
    }
    scroll.stop();
    print(qPrintable(QStringLiteral("notebook %1 cells, scrolled").arg(cells)), scroll.maxStallMs(),
          QStringLiteral("%1 steps of 120 px over %2 px").arg(steps).arg(bar->maximum()));

    // Switching between open notebooks (each a tenth of the big one's size).
    std::vector<ui::notebook::NotebookPage*> pages;
    const QString smallPath = dir.filePath(QStringLiteral("small.ipynb"));
    QFile small(smallPath);
    if (!small.open(QIODevice::WriteOnly) || small.write(notebookJson(cells / 10)) < 0)
        return 2;
    small.close();
    for (int i = 0; i < notebooks; ++i) {
        auto* page = ui::notebook::NotebookController::createPage(&api, QStringLiteral("sb_bench"));
        if (page->session()->open(smallPath))
            return 2;
        stack.addWidget(page);
        pages.push_back(page);
    }
    stack.setCurrentWidget(pages.front());
    runFor(200);
    // The first round shows each page for the first time; the next two come back to them.
    double firstRound = 0;
    StallMeter switching;
    for (int round = 0; round < 3; ++round) {
        switching.start();
        for (auto* page : pages) {
            stack.setCurrentWidget(page);
            runFor(20);
        }
        switching.stop();
        if (round == 0)
            firstRound = switching.maxStallMs();
    }
    print(qPrintable(QStringLiteral("switching between %1 notebooks").arg(notebooks)),
          switching.maxStallMs(),
          QStringLiteral("%1 switches back to pages shown before, %2 cells each; the first "
                         "showing of each: %3 ms")
              .arg(2 * notebooks)
              .arg(cells / 10)
              .arg(firstRound, 0, 'f', 1));
    for (int i = stack.count() - 1; i >= 0; --i) {
        auto* page = qobject_cast<ui::notebook::NotebookPage*>(stack.widget(i));
        page->document()->setClean();
        delete page;
    }
    return 0;
}

} // namespace lizard::bench
