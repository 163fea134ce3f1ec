#pragma once
// Loads the web preview plugin (lizard_preview: QtWebEngine) the first time a preview opens.
// It is searched in $LIZARD_PREVIEW_PLUGIN (a file), then next to the app in
// ../lib/lizard-desktop/ (the build tree and installed packages use that layout).

#include <QString>
#include <QStringList>

namespace lizard::ui::ports {

class PreviewEngine;

class PreviewLoader
{
public:
    // The engine, loading it on the first call; nullptr with errorString() when it cannot load.
    static PreviewEngine* engine();
    static QString errorString();
    static bool isLoaded();
    static QStringList candidates(); // where it is looked for, in order
};

} // namespace lizard::ui::ports
