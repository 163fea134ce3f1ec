#pragma once
// The colours with a meaning that the palette has no role for (an error's red, a success's
// green, a banner's tint), in a light and a dark variant: widgets that paint them take them
// from current() inside AppTheme::follow(), so that they change with the scheme.

#include <QColor>
#include <QString>

namespace lizard::ui {

struct ThemeColors
{
    // Text
    QColor error, warning, success, info, busy, muted;
    // stderr and tracebacks: a tint behind the text, and stderr's own text colour
    QColor stderrBackground, stderrText, errorOutputBackground;
    // Banners: an error, a note, the progress strip
    QColor errorBannerBackground, errorBannerBorder, errorBannerText;
    QColor noteBannerBackground, noteBannerBorder, noteBannerText;
    QColor progressBackground, progressBorder, progressText;
    // A search field that found nothing
    QColor notFoundBackground;
    // Notebook cells: prompts, the editor in command and edit mode, the selected cell's bar
    QColor promptIn, promptOut;
    QColor editorBorder, editorEditBorder, editorCommandBackground, cellSelected;
    // HTML tables in outputs: the rule under the header, the tint of every second row
    QColor tableHeadRule, tableStripe;
    // A bar above long output (its count of hidden lines)
    QColor outputBarBackground, outputBarText;
    // Status badges: background and text of each kind
    QColor badgeRunningBackground, badgeRunningText;
    QColor badgePausedBackground, badgePausedText;
    QColor badgeEndingBackground, badgeEndingText;
    QColor badgeOtherBackground, badgeOtherText;
    // Remote control of a screen: the frame and banner say the user's input goes to the sandbox
    QColor control, controlText;

    static const ThemeColors& light();
    static const ThemeColors& dark();
    // The variant of the scheme in use (AppTheme::isDark()).
    static const ThemeColors& current();
};

// "color:#rrggbb;" for a style sheet.
QString cssColor(const QColor& color);

} // namespace lizard::ui
