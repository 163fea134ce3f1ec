#pragma once
// What the official SDK measures under node: its runCode median (sdk_runcode.mjs), its
// Sandbox.create from a warm pool and cold (sdk_create.mjs), and its first result and chart of a
// new CodeSandbox (sdk_firstchart.mjs).

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace lizard::bench {

struct SdkReference
{
    double medianMs = 0;      // back to back
    double pacedMedianMs = 0; // 100 ms between calls
    QString error; // non-empty: no reference (node or the SDK missing, the script failed)
};

// Runs `node sdk_runcode.mjs <sdkIndex> <sandboxId> <runs>` with LIZARD_API_URL/KEY set.
SdkReference sdkRunCodeMedian(const QString& sdkIndex, const QString& url, const QString& key,
                              const QString& sandboxId, int runs);

// The official SDK's Sandbox.create (sdk_create.mjs): from the base template's warm pool, and
// cold beside it.
struct SdkCreate
{
    double warmMedianMs = 0, warmP90Ms = 0, coldMedianMs = 0;
    double fork10MedianMs = 0; // fork({count: 10}) of a base sandbox
    // Creates after 1.5 s of quiet, and a loopback echo of its own after the same quiet.
    double idleMedianMs = 0, echoIdleMedianMs = 0;
    QString error;
};
SdkCreate sdkCreateFigures(const QString& sdkIndex, const QString& url, const QString& key,
                           int runs);

// The official SDK's CodeSandbox.create → first runCode('1+1') → first chart (sdk_firstchart.mjs):
// from the interpreter template's pool (a pre-started kernel), and cold beside it. Medians, ms,
// each step from the end of the one before.
struct SdkFirstChart
{
    struct Steps
    {
        double createMs = 0, firstMs = 0, chartMs = 0;
        double totalMs() const { return createMs + firstMs + chartMs; }
    } warm, cold;
    QString error;
};
SdkFirstChart sdkFirstChartFigures(const QString& sdkIndex, const QString& url, const QString& key,
                                   int runs);

} // namespace lizard::bench
