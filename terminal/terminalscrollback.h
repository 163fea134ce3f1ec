#pragma once
// The lines that scrolled off the top of the primary screen: a ring of at most `capacity`
// lines, each kept as its text plus a run list of attributes (about 100 bytes for a short
// line, 250 for a full 80-column one) instead of an array of grid cells.

#include "terminal/terminalcell.h"

#include <QString>
#include <vector>

namespace lizard::terminal {

struct ScrollbackRun
{
    uint16_t cells = 0; // grid cells the run covers
    uint16_t chars = 0; // UTF-16 units of the line's text it covers
    CellAttr attr;
};

struct ScrollbackLine
{
    QString text;                    // one entry per cell; a blank cell is a space
    std::vector<ScrollbackRun> runs; // empty: the whole text in default attributes
    std::vector<uint16_t> offsets;   // start of each cell in text (+ end); empty: 1 unit/cell
    bool wrapped = false;            // the terminal wrapped it: the next line continues it
    int cells() const { return offsets.empty() ? int(text.size()) : int(offsets.size()) - 1; }
    // Text of cells [from, to), clamped to the line.
    QString cellText(int from, int to) const;
    // The cell that holds text position `pos`.
    int cellAt(int pos) const;
};

class TerminalScrollback
{
public:
    explicit TerminalScrollback(int capacity = 10000);

    int size() const { return m_count; }
    int capacity() const { return m_capacity; }
    // Lines dropped from the oldest end since the last clear(): absolute line n is index
    // n - dropped().
    qint64 dropped() const { return m_dropped; }
    const ScrollbackLine& line(int index) const; // 0 is the oldest kept line

    // A wrapped line keeps its trailing blanks: they are text between two words.
    void push(const GridCell* cells, int count, bool wrapped = false);
    // Line `index` as `cols` grid cells (cut or padded with blanks).
    void cellsOf(int index, GridCell* cells, int cols) const;
    // Gives the newest line back as `cols` cells (padded with blanks); false when empty.
    bool pop(GridCell* cells, int cols, bool* wrapped = nullptr);
    void clear();

private:
    std::vector<ScrollbackLine> m_lines;
    int m_capacity;
    int m_head = 0; // slot of the oldest line
    int m_count = 0;
    qint64 m_dropped = 0;
};

} // namespace lizard::terminal
