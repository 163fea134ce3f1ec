#include "ui/theme/themecolors.h"

#include "ui/theme/apptheme.h"

namespace lizard::ui {

namespace {

QColor rgb(unsigned v)
{
    return QColor((v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
}

ThemeColors makeLight()
{
    ThemeColors c;
    c.error = rgb(0xb02020);
    c.warning = rgb(0x8a6d00);
    c.success = rgb(0x2e7d32);
    c.info = rgb(0x1f4e9a);
    c.busy = rgb(0xc25e00);
    c.muted = rgb(0x6e7175);
    c.stderrBackground = rgb(0xfdecec);
    c.stderrText = rgb(0xb02020);
    c.errorOutputBackground = rgb(0xfff0f0);
    c.errorBannerBackground = rgb(0xfdecea);
    c.errorBannerBorder = rgb(0xe0a39c);
    c.errorBannerText = rgb(0x7a1c12);
    c.noteBannerBackground = rgb(0xfff6dc);
    c.noteBannerBorder = rgb(0xe6cf8b);
    c.noteBannerText = rgb(0x5c4600);
    c.progressBackground = rgb(0xe8f1fb);
    c.progressBorder = rgb(0xa9c6e8);
    c.progressText = rgb(0x17365d);
    c.notFoundBackground = rgb(0xffe0e0);
    c.promptIn = rgb(0x303f9f);
    c.promptOut = rgb(0xd84315);
    c.editorBorder = rgb(0xdddddd);
    c.editorEditBorder = rgb(0x66bb6a);
    c.editorCommandBackground = rgb(0xf7f7f7);
    c.cellSelected = rgb(0x1976d2);
    c.tableHeadRule = rgb(0x9aa0a6);
    c.tableStripe = rgb(0xf3f4f6);
    c.outputBarBackground = rgb(0xeef2f7);
    c.outputBarText = rgb(0x333333);
    c.badgeRunningBackground = rgb(0xdcf3e2);
    c.badgeRunningText = rgb(0x1b6b31);
    c.badgePausedBackground = rgb(0xdde8f8);
    c.badgePausedText = rgb(0x1f4e9a);
    c.badgeEndingBackground = rgb(0xfde3cf);
    c.badgeEndingText = rgb(0x9a3c00);
    c.badgeOtherBackground = rgb(0xe6e8eb);
    c.badgeOtherText = rgb(0x4a4f55);
    c.control = rgb(0xe8590c);
    c.controlText = rgb(0xffffff);
    return c;
}

ThemeColors makeDark()
{
    ThemeColors c;
    c.error = rgb(0xff7b72);
    c.warning = rgb(0xe3b341);
    c.success = rgb(0x56d364);
    c.info = rgb(0x79b8ff);
    c.busy = rgb(0xffa657);
    c.muted = rgb(0x9ba1a6);
    c.stderrBackground = rgb(0x3b2326);
    c.stderrText = rgb(0xff9b94);
    c.errorOutputBackground = rgb(0x3a2225);
    c.errorBannerBackground = rgb(0x3d2224);
    c.errorBannerBorder = rgb(0x7a3b3b);
    c.errorBannerText = rgb(0xffb4ab);
    c.noteBannerBackground = rgb(0x3a3220);
    c.noteBannerBorder = rgb(0x6e5c2b);
    c.noteBannerText = rgb(0xf2d88b);
    c.progressBackground = rgb(0x1f2d3f);
    c.progressBorder = rgb(0x3b5a80);
    c.progressText = rgb(0xcfe2ff);
    c.notFoundBackground = rgb(0x5a2a2e);
    c.promptIn = rgb(0x8c9eff);
    c.promptOut = rgb(0xff8a65);
    c.editorBorder = rgb(0x3c4047);
    c.editorEditBorder = rgb(0x57a85a);
    c.editorCommandBackground = rgb(0x25282d);
    c.cellSelected = rgb(0x4d9cf0);
    c.tableHeadRule = rgb(0x6b7078);
    c.tableStripe = rgb(0x2a2d33);
    c.outputBarBackground = rgb(0x2a3038);
    c.outputBarText = rgb(0xc9d1d9);
    c.badgeRunningBackground = rgb(0x1f4a2b);
    c.badgeRunningText = rgb(0x8fe3a1);
    c.badgePausedBackground = rgb(0x22395c);
    c.badgePausedText = rgb(0xa9cbff);
    c.badgeEndingBackground = rgb(0x5a3214);
    c.badgeEndingText = rgb(0xffc08a);
    c.badgeOtherBackground = rgb(0x3a3e45);
    c.badgeOtherText = rgb(0xc3c7cc);
    c.control = rgb(0xe8590c);
    c.controlText = rgb(0xffffff);
    return c;
}

} // namespace

const ThemeColors& ThemeColors::light()
{
    static const ThemeColors c = makeLight();
    return c;
}

const ThemeColors& ThemeColors::dark()
{
    static const ThemeColors c = makeDark();
    return c;
}

const ThemeColors& ThemeColors::current()
{
    return AppTheme::instance()->isDark() ? dark() : light();
}

QString cssColor(const QColor& color)
{
    return QStringLiteral("color:%1;").arg(color.name());
}

} // namespace lizard::ui
