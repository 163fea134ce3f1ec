#pragma once
// The measured preview: a new sandbox serves a page with python3 -m http.server 8000, the Ports
// panel of `window` previews it; prints "preview: memory after one preview: …" and removes the
// sandbox. Returns 0, or 2 when the figure could not be measured.

#include <QString>

namespace lizard::ui {
class MainWindow;
}

namespace lizard::bench {

int runPreviewScenario(ui::MainWindow& window, const QString& url, const QString& key);

} // namespace lizard::bench
