// lizard-bench-appload: the notebook side of the app under load (no server needed).
//   autosave: a 50 MB notebook autosaving while it is edited; the longest UI-thread stall and
//             the snapshot's cost, beside the old way (serialise and write on the UI thread)
//             measured in the same run.
//   spill:    the app's resident memory after a cell printed 1 GB through the run queue.
// LIZARD_BENCH_QUICK=1 (or --quick) uses fewer autosaves and 100 MB of output, and says so.
//
//   lizard-bench-appload [--notebook-mb 50] [--print-mb 1024] [--quick]

#include "appbench.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <cstdio>

namespace lizard::bench {

qint64 residentBytes()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong() * 1024;
    }
    return -1;
}

} // namespace lizard::bench

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Autosave stall and spilled-output memory of a notebook"));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("notebook-mb"),
                      QStringLiteral("Size of the autosaved notebook (default 50)."),
                      QStringLiteral("mb"), QStringLiteral("50")});
    parser.addOption({QStringLiteral("print-mb"),
                      QStringLiteral("Output a cell prints (default 1024; quick 100)."),
                      QStringLiteral("mb")});
    parser.addOption({QStringLiteral("quick"),
                      QStringLiteral("Fewer runs and bytes (as LIZARD_BENCH_QUICK=1).")});
    parser.process(app);
    const bool quick =
        parser.isSet(QStringLiteral("quick")) || qEnvironmentVariable("LIZARD_BENCH_QUICK") == "1";
    const int notebookMb = qMax(1, parser.value(QStringLiteral("notebook-mb")).toInt());
    const qint64 printMb =
        parser.isSet(QStringLiteral("print-mb"))
            ? qMax<qint64>(10, parser.value(QStringLiteral("print-mb")).toLongLong())
            : (quick ? 100 : 1024);
    // Memory first, so the notebook of the autosave figure does not inflate its baseline.
    int rc = lizard::bench::runSpillBench(printMb, quick);
    rc = qMax(rc, lizard::bench::runAutosaveBench(notebookMb, quick ? 4 : 12));
    return rc;
}
