// bench_terminalview: how fast the terminal widget takes a program's output, and what it costs.
//   - 100 MB of `seq`-like lines, then 100 MB of lines with SGR colours, fed at once into a
//     shown 80×24 view (offscreen): MB/s until the last byte is parsed and painted, and the
//     longest event-loop stall meanwhile (a 1 ms timer's longest gap);
//   - libvterm's state layer alone on the same bytes (no grid, no widget): the ceiling;
//   - a full-screen repaint of 200x50 coloured text (median of 60), beside the same rows drawn
//     with one QPainter::drawText each (text shaping, what a plain text widget pays);
//   - a reflow: 10,000 lines of scrollback and the screen wrapped again at a new width;
//   - memory per view: RSS growth of 10 views each holding 10,000 scrollback lines of 80
//     columns, divided by 10.
//
//   bench_terminalview [--megabytes N]

#include "console/stallmeter.h"
#include "figure.h"
#include "terminal/terminalscreen.h"
#include "ui/terminal/terminalview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cstdio>
#include <unistd.h>
#include <vterm.h>

using namespace lizard;

namespace {

constexpr qsizetype kBlock = 4 * 1000 * 1000; // fed repeatedly: shared, so 100 MB costs 4 MB

QByteArray seqLines()
{
    QByteArray out;
    out.reserve(kBlock + 64);
    for (int i = 1; out.size() < kBlock; ++i)
        out += QByteArray::number(i) + "\r\n";
    return out;
}

QByteArray colouredLines()
{
    QByteArray out;
    out.reserve(kBlock + 200);
    for (int i = 1; out.size() < kBlock; ++i) {
        out += "\x1b[1;34m" + QByteArray::number(i).rightJustified(7, ' ') + "\x1b[0m \x1b[32m+" +
               QByteArray::number(i % 977) + "\x1b[0m src/file_" + QByteArray::number(i % 131) +
               ".cpp \x1b[38;5;" + QByteArray::number(16 + i % 216) +
               "mchanged\x1b[0m \x1b[38;2;200;120;40mwarning\x1b[0m: unused variable\r\n";
    }
    return out;
}

double rssMiB()
{
    QFile statm("/proc/self/statm");
    if (!statm.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.value(1).toDouble() * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

struct FeedResult
{
    double mbPerSecond = 0;
    double stallMs = 0;
};

FeedResult feedView(const QByteArray& block, qint64 megabytes)
{
    ui::TerminalView view;
    view.resize(view.sizeHint());
    view.show();
    QApplication::processEvents();
    bench::StallMeter meter;
    const qint64 total = megabytes * 1000 * 1000;
    meter.start();
    QElapsedTimer clock;
    clock.start();
    for (qint64 fed = 0; fed < total; fed += block.size())
        view.feed(block);
    const qint64 bytes = view.pendingBytes();
    while (view.pendingBytes() > 0)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    QCoreApplication::processEvents(); // the last frame
    const double seconds = clock.nsecsElapsed() / 1e9;
    meter.stop();
    return {bytes / 1e6 / seconds, meter.maxStallMs()};
}

double libvtermAlone(const QByteArray& block, qint64 megabytes)
{
    VTerm* vt = vterm_new(24, 80);
    vterm_set_utf8(vt, 1);
    VTermState* state = vterm_obtain_state(vt);
    // libvterm's own parsing and state; the glyphs, scrolls and erases go nowhere.
    VTermStateCallbacks callbacks = {};
    callbacks.putglyph = [](VTermGlyphInfo*, VTermPos, void*) { return 1; };
    callbacks.scrollrect = [](VTermRect, int, int, void*) { return 1; };
    callbacks.erase = [](VTermRect, int, void*) { return 1; };
    vterm_state_set_callbacks(state, &callbacks, nullptr);
    vterm_state_reset(state, 1);
    QElapsedTimer clock;
    clock.start();
    qint64 bytes = 0;
    // In 16 KiB writes, as the view does: libvterm 0.1.4 decodes a write into a stack array
    // sized by its length, so one 4 MB write overflows the stack.
    constexpr qsizetype kChunk = 16 * 1024;
    for (; bytes < megabytes * 1000 * 1000; bytes += block.size()) {
        for (qsizetype at = 0; at < block.size(); at += kChunk)
            vterm_input_write(vt, block.constData() + at,
                              size_t(std::min(kChunk, block.size() - at)));
    }
    const double seconds = clock.nsecsElapsed() / 1e9;
    vterm_free(vt);
    return bytes / 1e6 / seconds;
}

double memoryPerView()
{
    QByteArray lines;
    for (int i = 0; i < 10100; ++i) {
        QByteArray line = QByteArray::number(i).rightJustified(6, '0') + " ";
        while (line.size() < 80)
            line += "lorem ipsum dolor sit amet ";
        lines += line.left(80) + "\r\n";
    }
    const double before = rssMiB();
    std::vector<std::unique_ptr<ui::TerminalView>> views;
    for (int i = 0; i < 10; ++i) {
        views.push_back(std::make_unique<ui::TerminalView>());
        views.back()->resize(views.back()->sizeHint());
        views.back()->show();
        views.back()->feed(lines);
        views.back()->flush();
        if (views.back()->scrollbackLines() != 10000 || views.back()->columns() != 80)
            std::fprintf(stderr, "bench_terminalview: view %d has %d scrollback lines, %d cols\n",
                         i, views.back()->scrollbackLines(), views.back()->columns());
    }
    return (rssMiB() - before) / 10;
}

struct PaintResult
{
    double viewMs = 0;
    double drawTextMs = 0;
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

PaintResult fullScreenPaint()
{
    ui::TerminalView view;
    view.show();
    QApplication::processEvents();
    const QFontMetricsF metrics(view.font());
    view.resize(int(metrics.horizontalAdvance(QLatin1Char('M')) * 200) + 40,
                int(metrics.height() * 50) + 20);
    QApplication::processEvents();
    QByteArray screen = "\x1b[2J\x1b[H";
    QList<QByteArray> rows;
    for (int r = 0; r < view.rows(); ++r) {
        QByteArray row;
        while (row.size() < view.columns())
            row += "src/file_" + QByteArray::number(r * 7 + row.size()) + ".cpp: warning ";
        row = row.left(view.columns() - 1);
        rows.append(row);
        screen += "\x1b[" + QByteArray::number(31 + r % 7) + "m" + row.left(40) + "\x1b[0m" +
                  row.mid(40) + (r + 1 < view.rows() ? "\r\n" : "");
    }
    view.feed(screen);
    view.flush();
    QApplication::processEvents();
    std::vector<double> viewMs;
    std::vector<double> drawTextMs;
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    for (int i = 0; i < 60; ++i) {
        QElapsedTimer clock;
        clock.start();
        view.viewport()->repaint();
        viewMs.push_back(clock.nsecsElapsed() / 1e6);
        clock.restart();
        {
            QPainter painter(&image);
            painter.fillRect(image.rect(), Qt::black);
            painter.setFont(view.font());
            painter.setPen(Qt::white);
            for (int r = 0; r < rows.size(); ++r)
                painter.drawText(QPointF(2, 1 + metrics.ascent() + r * metrics.height()),
                                 QString::fromLatin1(rows[r]));
        }
        drawTextMs.push_back(clock.nsecsElapsed() / 1e6);
    }
    return {median(viewMs), median(drawTextMs)};
}

// Milliseconds to wrap a full scrollback of long lines (160 characters, two rows at 80
// columns) again at 100 columns, then back at 80; the median of 5 such resizes.
double reflowMs()
{
    terminal::TerminalScreen screen(24, 80, 10000);
    QByteArray lines;
    for (int i = 0; i < 5100; ++i) {
        QByteArray line = QByteArray::number(i).rightJustified(6, '0') + " ";
        while (line.size() < 160)
            line += "lorem ipsum dolor sit amet ";
        lines += line.left(160) + "\r\n";
    }
    for (qsizetype at = 0; at < lines.size(); at += 16384)
        screen.write(lines.constData() + at, size_t(std::min<qsizetype>(16384, lines.size() - at)));
    std::vector<double> ms;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer clock;
        clock.start();
        screen.resize(24, i % 2 == 0 ? 100 : 80);
        ms.push_back(clock.nsecsElapsed() / 1e6);
    }
    return median(ms);
}

void print(const bench::Figure& figure)
{
    std::printf("%s\n", figure.line().c_str());
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    qint64 megabytes = 100;
    const QStringList args = QCoreApplication::arguments();
    if (const qsizetype i = args.indexOf("--megabytes"); i >= 0 && i + 1 < args.size())
        megabytes = args.at(i + 1).toLongLong();
    const QByteArray kinds[2] = {seqLines(), colouredLines()};
    const char* names[2] = {"seq", "SGR"};
    for (int k = 0; k < 2; ++k) {
        const FeedResult result = feedView(kinds[k], megabytes);
        const double ceiling = libvtermAlone(kinds[k], megabytes);
        const std::string what = std::string("terminal ") + names[k] + " lines";
        print({.name = what,
               .statistic = std::to_string(megabytes) + " MB, 80x24, 1 run",
               .unit = "MB/s",
               .value = result.mbPerSecond,
               .target = 50,
               .higherIsBetter = true,
               .reference = bench::Reference{"libvterm state layer alone", ceiling}});
        print({.name = std::string("terminal ") + names[k] + " stall",
               .statistic = "max 1 ms-timer gap",
               .unit = "ms",
               .value = result.stallMs,
               .target = 16});
    }
    const PaintResult paint = fullScreenPaint();
    print({.name = "terminal full-screen paint",
           .statistic = "200x50, median of 60",
           .unit = "ms",
           .value = paint.viewMs,
           .target = 16,
           .reference = bench::Reference{"drawText per row, same text", paint.drawTextMs}});
    print({.name = "terminal reflow",
           .statistic = "10k lines, median of 5",
           .unit = "ms",
           .value = reflowMs(),
           .hasTarget = false,
           .note = "80 <-> 100 columns"});
    print({.name = "terminal memory per view",
           .statistic = "10 views, 10k x 80",
           .unit = "MiB",
           .value = memoryPerView(),
           .hasTarget = false,
           .note = "RSS growth / 10"});
    return 0;
}
