#include "ui/terminal/terminalpalette.h"

namespace lizard::ui::vt {

namespace {

void fillCubeAndGreys(TerminalPalette& p)
{
    static constexpr int kLevels[6] = {0, 95, 135, 175, 215, 255};
    for (int i = 0; i < 216; ++i)
        p.table[16 + i] = QColor(kLevels[i / 36], kLevels[(i / 6) % 6], kLevels[i % 6]);
    for (int i = 0; i < 24; ++i)
        p.table[232 + i] = QColor(8 + 10 * i, 8 + 10 * i, 8 + 10 * i);
}

TerminalPalette make(const char* const (&sixteen)[16], QColor fg, QColor bg, QColor selection)
{
    TerminalPalette p;
    p.foreground = fg;
    p.background = bg;
    p.cursor = fg;
    p.selection = selection;
    p.selectionText = fg;
    for (int i = 0; i < 16; ++i)
        p.table[i] = QColor(QLatin1String(sixteen[i]));
    fillCubeAndGreys(p);
    return p;
}

} // namespace

TerminalPalette TerminalPalette::dark()
{
    static const char* const kColors[16] = {
        "#2e3436", "#e5484d", "#4eb35a", "#d7a53a", "#4f8fe8", "#b46fd6", "#3fb7c2", "#d3d7cf",
        "#6b7172", "#ff6b6b", "#7bd88f", "#f2cc60", "#7aa9ff", "#d59cf2", "#6fd8e0", "#ffffff"};
    return make(kColors, QColor("#dcdfe4"), QColor("#1b1d22"), QColor("#3d5a80"));
}

TerminalPalette TerminalPalette::light()
{
    static const char* const kColors[16] = {
        "#000000", "#c01c28", "#26a269", "#a2734c", "#12488b", "#a347ba", "#2aa1b3", "#b0b0b0",
        "#5e5c64", "#f66151", "#33a65f", "#b88a00", "#2a7bde", "#c061cb", "#24a2b8", "#ffffff"};
    return make(kColors, QColor("#1e1f22"), QColor("#fbfbfb"), QColor("#b5d0f5"));
}

QColor TerminalPalette::color(terminal::ColorCode code, bool isBackground) const
{
    if (code == terminal::kDefaultColor)
        return isBackground ? background : foreground;
    if (code & terminal::kIndexed)
        return table[code & 0xff];
    return QColor((code >> 16) & 0xff, (code >> 8) & 0xff, code & 0xff);
}

} // namespace lizard::ui::vt
