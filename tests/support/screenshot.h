#pragma once
// Pictures for the user guide (docs/guide/*.png). With LIZARD_SCREENSHOT_DIR set (`make
// guide-shots` sets it) a UI test saves what the user sees at a step of a task; without it
// (CTest) nothing is written and the test still checks what that picture would show.
// Header-only: the support library links no Widgets, the UI suites that include this do.

#include <QDir>
#include <QPixmap>
#include <QString>
#include <QWidget>

namespace lizard::test {

inline QString screenshotDir()
{
    return qEnvironmentVariable("LIZARD_SCREENSHOT_DIR");
}
inline bool screenshotsWanted()
{
    return !screenshotDir().isEmpty();
}

// Saves `picture` as <dir>/<name>.png. True when saved, or when no pictures are wanted.
inline bool saveScreenshot(const QPixmap& picture, const QString& name)
{
    const QString dir = screenshotDir();
    if (dir.isEmpty())
        return true;
    return !picture.isNull() && QDir().mkpath(dir) &&
           picture.save(dir + QLatin1Char('/') + name + ".png", "PNG");
}

// The widget as it is on screen (a window, or just a dialog when the dialog is the point).
inline bool saveScreenshot(QWidget* widget, const QString& name)
{
    return !screenshotsWanted() || (widget != nullptr && saveScreenshot(widget->grab(), name));
}

} // namespace lizard::test
