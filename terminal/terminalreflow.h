#pragma once
// Reflow: the rows of the primary screen and its scrollback wrapped again at a new width, as
// GNOME Terminal and Konsole do when a window is made narrower or wider. A row that the
// terminal wrapped (its text ran past the right margin) joins the row after it into one line;
// lines are then cut at the new width. Rows ended by a line feed stay separate, however short.

#include "terminal/terminalcell.h"

#include <vector>

namespace lizard::terminal {

struct ReflowRow
{
    std::vector<GridCell> cells; // the row's written cells (no trailing never-written ones)
    bool wrapped = false;        // the line goes on in the next row
};

struct ReflowPoint
{
    int row = 0; // index into the rows
    int col = 0; // may be past the row's cells (a cursor after blanks)
};

// Wraps `rows` again at `cols` columns. Each point (the cursor, the first cell of the old
// screen) is moved to where its cell went. A wide character never straddles the margin: it
// starts the next row and leaves a blank. A point at the end of a full row moves to the start
// of a new, empty continuation row, where the next character would go.
std::vector<ReflowRow> reflowRows(const std::vector<ReflowRow>& rows, int cols,
                                  std::vector<ReflowPoint*> points);

} // namespace lizard::terminal
