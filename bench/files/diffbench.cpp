#include "diffbench.h"

#include "stallmeter.h"
#include "ui/changes/diffview.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

namespace lizard::bench {

namespace {

constexpr double kTargetMs = 100;

} // namespace

bool measureDiffView()
{
    // 20,000 lines of 50 bytes: 1 MB; every hundredth line different on the right.
    QByteArray before, after;
    for (int i = 0; i < 20000; ++i) {
        const QByteArray line = QByteArray::number(i).rightJustified(8, '0') + ' ' +
                                QByteArray(40, char('a' + i % 26)) + '\n';
        before += line;
        after += i % 100 == 50 ? QByteArray("changed ") + line.mid(8) : line;
    }
    ui::changes::DiffView view;
    view.resize(1100, 700);
    view.show();
    QCoreApplication::processEvents();
    StallMeter meter;
    meter.start();
    QElapsedTimer t;
    t.start();
    bool arrived = false;
    QEventLoop loop;
    QObject::connect(&view, &ui::changes::DiffView::shown, &loop, [&] {
        arrived = true;
        loop.quit();
    });
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    view.showTexts(QStringLiteral("/root/big.txt"), &before, &after);
    const qint64 askedMs = t.elapsed();
    // The comparison runs off the UI thread; the loop keeps turning (and the meter watching it).
    if (!arrived)
        loop.exec();
    const qint64 shownMs = t.elapsed();
    QCoreApplication::processEvents(); // its paint
    const qint64 paintedMs = t.elapsed();
    meter.stop();
    const bool ok = arrived && view.summary().contains(QStringLiteral("200"));

    // The reference: GNU diff of the same bytes, as files.
    double diffMs = -1;
    QTemporaryDir dir;
    const QString diff = QStandardPaths::findExecutable(QStringLiteral("diff"));
    if (dir.isValid() && !diff.isEmpty()) {
        QFile a(dir.filePath("a")), b(dir.filePath("b"));
        if (a.open(QIODevice::WriteOnly) && b.open(QIODevice::WriteOnly)) {
            a.write(before);
            b.write(after);
            a.close();
            b.close();
            QProcess p;
            QElapsedTimer d;
            d.start();
            p.start(diff, {QStringLiteral("-u"), a.fileName(), b.fileName()});
            if (p.waitForFinished(60000))
                diffMs = double(d.nsecsElapsed()) / 1e6;
        }
    }
    std::printf("changes diff of a 1 MB text file (200 of 20000 lines changed): asked in %lld ms, "
                "shown in %lld ms (painted %lld ms, target < %.0f ms), max event-loop stall "
                "%.1f ms %s",
                static_cast<long long>(askedMs), static_cast<long long>(shownMs),
                static_cast<long long>(paintedMs), kTargetMs, meter.maxStallMs(),
                !ok                              ? "ERROR"
                : double(paintedMs) <= kTargetMs ? "PASS"
                                                 : "MISS");
    if (diffMs >= 0)
        std::printf("  reference GNU diff -u of the same files: %.1f ms (ratio %.1fx)", diffMs,
                    double(paintedMs) / std::max(diffMs, 0.1));
    std::printf("  [%s]\n", qPrintable(view.summary()));
    std::fflush(stdout);
    return ok;
}

} // namespace lizard::bench
