#pragma once
// The desktop bench's figures for one viewer: start -> first frame, xdotool -> visible, and the
// app's CPU while a static desktop is shown (beside the same process with no viewer).

#include "figure.h"
#include "viewers.h"

#include <functional>
#include <memory>
#include <vector>

namespace lizard::client {
class LizardApi;
}

namespace lizard::bench {

struct DesktopBenchOptions
{
    int startRuns = 3;
    int inputRuns = 20;
    int cpuSeconds = 10;
    QString shotsDir; // not empty: each viewer's first frame and open menu are saved there
};

// Measures one viewer on a desktop sandbox; the desktop is left running. Appends the figures
// (an ERROR figure for what could not be measured) and returns false when something failed.
bool measureViewer(client::LizardApi& api, const QString& sandboxId,
                   const std::function<std::unique_ptr<Viewer>()>& make,
                   const DesktopBenchOptions& options, std::vector<Figure>* figures);

} // namespace lizard::bench
