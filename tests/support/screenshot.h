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

// Saves `picture` as <dir>/<name>.png when pictures are wanted; under CTest it does nothing.
// A picture that cannot be saved is a warning here, not a test failure: what a test checks is
// what the picture would show, and scripts/guide-shots.sh refuses a run that lacks any picture
// docs/guide.md uses.
inline void saveScreenshot(const QPixmap& picture, const QString& name)
{
    const QString dir = screenshotDir();
    if (dir.isEmpty())
        return;
    const QString path = dir + QLatin1Char('/') + name + ".png";
    if (picture.isNull() || !QDir().mkpath(dir) || !picture.save(path, "PNG"))
        qWarning("screenshot %s could not be saved", qPrintable(path));
}

// The widget as it is on screen (a window, or just a dialog when the dialog is the point).
inline void saveScreenshot(QWidget* widget, const QString& name)
{
    if (screenshotsWanted())
        saveScreenshot(widget != nullptr ? widget->grab() : QPixmap(), name);
}

} // namespace lizard::test
