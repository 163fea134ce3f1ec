#pragma once
// The official SDK's runCode median, measured by sdk_runcode.mjs under node.

#include <QString>

namespace lizard::bench {

struct SdkReference
{
    double medianMs = 0;
    QString error; // non-empty: no reference (node or the SDK missing, the script failed)
};

// Runs `node sdk_runcode.mjs <sdkIndex> <sandboxId> <runs>` with LIZARD_API_URL/KEY set.
SdkReference sdkRunCodeMedian(const QString& sdkIndex, const QString& url, const QString& key,
                              const QString& sandboxId, int runs);

} // namespace lizard::bench
