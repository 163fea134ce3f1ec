#pragma once
// The terminal's colours: default foreground and background, the 16 theme colours, the 6×6×6
// cube and the grey ramp of xterm's 256, and the colours of the cursor and selection.

#include "terminal/terminalcell.h"

#include <QColor>
#include <array>

namespace lizard::ui::vt {

struct TerminalPalette
{
    QColor foreground;
    QColor background;
    QColor cursor;
    QColor selection;
    QColor selectionText;
    std::array<QColor, 256> table;

    static TerminalPalette dark();
    static TerminalPalette light();
    QColor color(terminal::ColorCode code, bool isBackground) const;
};

} // namespace lizard::ui::vt
