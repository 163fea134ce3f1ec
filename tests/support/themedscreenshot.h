#pragma once
// Pictures for the user guide in both colour schemes, for UI suites (they link lizard_ui):
// <name>.png in the light scheme and <name>-dark.png in the dark one, and with
// LIZARD_SCREENSHOT_2X=1 also both at twice the resolution (<name>@2x.png, <name>-dark@2x.png),
// to look at HiDPI rendering (`make guide-shots` does not set it: the guide keeps 1× pictures).
// The app's scheme is put back as it was.

#include "support/screenshot.h"
#include "ui/theme/apptheme.h"

#include <QApplication>
#include <QPainter>
#include <QTest>
#include <utility>

namespace lizard::test {

// The widget rendered at `scale` device pixels per pixel, as on a screen at that scale.
inline QPixmap grabScaled(QWidget* widget, qreal scale)
{
    QPixmap picture(widget->size() * scale);
    picture.setDevicePixelRatio(scale);
    picture.fill(widget->palette().window().color());
    widget->render(&picture);
    return picture;
}

inline void saveLightAndDark(QWidget* widget, const QString& name)
{
    if (!screenshotsWanted() || widget == nullptr)
        return;
    const bool twice = qEnvironmentVariable("LIZARD_SCREENSHOT_2X") == u"1";
    ui::AppTheme* theme = ui::AppTheme::instance();
    const ui::AppTheme::Choice before = theme->choice();
    const std::pair<ui::AppTheme::Choice, QString> schemes[] = {
        {ui::AppTheme::Choice::Light, name}, {ui::AppTheme::Choice::Dark, name + "-dark"}};
    for (const auto& [choice, file] : schemes) {
        theme->setChoice(choice);
        QTest::qWait(100); // the palette's change events, then a paint
        saveScreenshot(widget, file);
        if (twice)
            saveScreenshot(grabScaled(widget, 2.0), file + "@2x");
    }
    theme->setChoice(before);
    QTest::qWait(50);
}

} // namespace lizard::test
