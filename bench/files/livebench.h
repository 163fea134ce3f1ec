#pragma once
// The live figure of lizard-bench-files: the shown 10,000-entry folder changes in the sandbox
// while the panel follows it through fs.watch (models/files/filechangefeed.h).

#include <QString>

class QTreeView;

namespace lizard::client {
class LizardApi;
}
namespace lizard::models::files {
class SandboxFileModel;
}

namespace lizard::bench {

// Rewrites every file of `folder` three times (half a second apart), then creates a last one,
// and reports the longest event-loop stall meanwhile (target <= 50 ms), where the UI thread was
// during it (schedstallmeter.h), and how long after that last file was made it showed in the
// model; then, as the reference, the longest stall while the same churn runs again with no
// watcher following it. True when both were measured.
bool measureLive(client::LizardApi& api, models::files::SandboxFileModel& model, QTreeView& view,
                 const QString& sandboxId, const QString& folder, int entries);

} // namespace lizard::bench
