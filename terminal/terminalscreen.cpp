#include "terminal/terminalscreen.h"

#include "terminal/terminalreflow.h"

#include <algorithm>
#include <cstring>
#include <vterm.h>

namespace lizard::terminal {

namespace {

ColorCode colorCode(const VTermColor& color, bool background)
{
    if (background ? VTERM_COLOR_IS_DEFAULT_BG(&color) : VTERM_COLOR_IS_DEFAULT_FG(&color))
        return kDefaultColor;
    if (VTERM_COLOR_IS_INDEXED(&color))
        return kIndexed | color.indexed.idx;
    return kRgb | (uint32_t(color.rgb.red) << 16) | (uint32_t(color.rgb.green) << 8) |
           color.rgb.blue;
}

void setFlag(CellAttr& attr, uint16_t flag, bool on)
{
    attr.flags = on ? (attr.flags | flag) : (attr.flags & ~flag);
}

} // namespace

// libvterm's state layer calls these; each forwards to the screen behind `user`.
struct ScreenCallbacks
{
    static TerminalScreen* self(void* user) { return static_cast<TerminalScreen*>(user); }

    // While the screen brings libvterm in step (sync), libvterm redoes what the grid already
    // shows: its callbacks are ignored then.
    static int putglyph(VTermGlyphInfo* info, VTermPos pos, void* user)
    {
        TerminalScreen* s = self(user);
        if (s->m_syncing)
            return 1;
        ++s->m_glyphsPut;
        s->m_lastPut = {pos.row,
                        pos.col,
                        info->width,
                        {info->chars[0], info->chars[0] != 0 ? info->chars[1] : 0}};
        s->putGlyph(info->chars, info->width, info->protected_cell, pos.row, pos.col);
        return 1;
    }
    static int movecursor(VTermPos pos, VTermPos, int visible, void* user)
    {
        TerminalScreen* s = self(user);
        if (s->m_syncing)
            return 1;
        ++s->m_moves;
        s->cursorMoved(pos.row, pos.col);
        (void)visible; // the visibility arrives as VTERM_PROP_CURSORVISIBLE
        return 1;
    }
    static int scrollrect(VTermRect r, int down, int right, void* user)
    {
        if (!self(user)->m_syncing)
            self(user)->scrollRect(r.start_row, r.end_row, r.start_col, r.end_col, down, right);
        return 1;
    }
    static int moverect(VTermRect dest, VTermRect src, void* user)
    {
        if (!self(user)->m_syncing)
            self(user)->moveRect(dest.start_row, dest.start_col, src.start_row, src.end_row,
                                 src.start_col, src.end_col);
        return 1;
    }
    static int erase(VTermRect r, int selective, void* user)
    {
        if (!self(user)->m_syncing)
            self(user)->erase(r.start_row, r.end_row, r.start_col, r.end_col, selective != 0);
        return 1;
    }
    static int initpen(void* user)
    {
        self(user)->m_pen = CellAttr();
        return 1;
    }
    static int setpenattr(VTermAttr attr, VTermValue* val, void* user)
    {
        CellAttr& pen = self(user)->m_pen;
        switch (attr) {
        case VTERM_ATTR_BOLD:
            setFlag(pen, Bold, val->boolean);
            break;
        case VTERM_ATTR_UNDERLINE:
            setFlag(pen, Underline, val->number != 0);
            break;
        case VTERM_ATTR_ITALIC:
            setFlag(pen, Italic, val->boolean);
            break;
        case VTERM_ATTR_BLINK:
            setFlag(pen, Blink, val->boolean);
            break;
        case VTERM_ATTR_REVERSE:
            setFlag(pen, Reverse, val->boolean);
            break;
        case VTERM_ATTR_STRIKE:
            setFlag(pen, Strike, val->boolean);
            break;
        case VTERM_ATTR_FOREGROUND:
            pen.fg = colorCode(val->color, false);
            break;
        case VTERM_ATTR_BACKGROUND:
            pen.bg = colorCode(val->color, true);
            break;
        default:
            break;
        }
        return 1;
    }
    static int settermprop(VTermProp prop, VTermValue* val, void* user)
    {
        TerminalScreen* s = self(user);
        switch (prop) {
        case VTERM_PROP_CURSORVISIBLE:
            s->m_cursorVisible = val->boolean;
            s->damageRow(s->m_cursorRow);
            break;
        case VTERM_PROP_ALTSCREEN:
            s->setAltScreen(val->boolean);
            break;
        case VTERM_PROP_TITLE:
            s->m_title = QString::fromUtf8(val->string);
            if (s->m_listener.title)
                s->m_listener.title(s->m_title);
            break;
        case VTERM_PROP_REVERSE:
            s->m_reverseVideo = val->boolean;
            s->damageAll();
            break;
        case VTERM_PROP_MOUSE:
            s->m_mouseMode = TerminalScreen::MouseMode(val->number);
            break;
        case VTERM_PROP_CURSORSHAPE:
            s->m_cursorShape =
                val->number == VTERM_PROP_CURSORSHAPE_UNDERLINE  ? TerminalScreen::CursorUnderline
                : val->number == VTERM_PROP_CURSORSHAPE_BAR_LEFT ? TerminalScreen::CursorBar
                                                                 : TerminalScreen::CursorBlock;
            s->damageRow(s->m_cursorRow);
            break;
        default:
            break;
        }
        return 1;
    }
    static int bell(void* user)
    {
        if (self(user)->m_listener.bell)
            self(user)->m_listener.bell();
        return 1;
    }
    static int resize(int rows, int cols, VTermPos* delta, void* user)
    {
        int rowDelta = 0;
        int colDelta = 0;
        self(user)->resizeGrids(rows, cols, &rowDelta, &colDelta);
        delta->row = rowDelta;
        delta->col = colDelta;
        return 1;
    }
    static int setlineinfo(int, const VTermLineInfo* info, const VTermLineInfo*, void* user)
    {
        // Double-width and double-height lines (DECDWL, DECDHL) leave text to libvterm.
        TerminalScreen* s = self(user);
        if (info->doublewidth || info->doubleheight)
            s->m_shadow.doubleWidth = true;
        else if (s->m_shadow.doubleWidth)
            s->m_dwlRecheck = true;
        return 1;
    }
    static void output(const char* s, size_t len, void* user)
    {
        if (self(user)->m_listener.output)
            self(user)->m_listener.output(s, len);
    }

    static constexpr VTermStateCallbacks table = {
        putglyph,   movecursor,  scrollrect, moverect, erase,       initpen,
        setpenattr, settermprop, bell,       resize,   setlineinfo,
    };
};

TerminalScreen::TerminalScreen(int rows, int cols, int scrollbackLines)
    : m_shadow(std::max(1, rows), std::max(1, cols)), m_rows(std::max(1, rows)),
      m_cols(std::max(1, cols)), m_scrollback(scrollbackLines)
{
    for (Grid& g : m_grids)
        g = blankGrid(m_rows, m_cols);
    m_rowDamage.assign(m_rows, 1);
    m_vt = vterm_new(m_rows, m_cols);
    vterm_set_utf8(m_vt, 1);
    vterm_output_set_callback(m_vt, &ScreenCallbacks::output, this);
    m_state = vterm_obtain_state(m_vt);
    vterm_state_set_callbacks(m_state, &ScreenCallbacks::table, this);
    vterm_state_reset(m_state, 1);
}

TerminalScreen::~TerminalScreen()
{
    vterm_free(m_vt);
}

void TerminalScreen::setFocused(bool focused)
{
    if (focused)
        vterm_state_focus_in(m_state);
    else
        vterm_state_focus_out(m_state);
}

void TerminalScreen::resize(int rows, int cols)
{
    rows = std::max(1, rows);
    cols = std::max(1, cols);
    if (rows == m_rows && cols == m_cols)
        return;
    // Text waiting for the rest of a character goes first, as libvterm would have had it.
    std::string held;
    if (m_tokenizer.takeHeldText(held))
        slowText(held);
    sync();
    const int col = m_cursorCol;
    m_moves = 0;
    vterm_set_size(m_vt, rows, cols); // calls back into resizeGrids
    m_shadow.resized(rows, cols, col, m_moves > 0);
}

void TerminalScreen::reset()
{
    m_tokenizer.clear();
    vterm_state_reset(m_state, 1);
    m_shadow.reset();
    m_inSync = true;
    m_replayGlyph = false;
    m_cursorRow = 0;
    m_cursorCol = 0;
    setAltScreen(false);
    for (Grid& g : m_grids)
        g = blankGrid(m_rows, m_cols);
    m_wrapCandidate = false;
    m_scrollback.clear();
    m_title.clear();
    m_cursorVisible = true;
    m_reverseVideo = false;
    m_mouseMode = MouseOff;
    damageAll();
}

QString TerminalScreen::rowText(int r) const
{
    const GridCell* cells = row(r);
    int end = m_grids[m_alt].extent[physical(r)];
    while (end > 0 && (cells[end - 1].ch == 0 || cells[end - 1].ch == U' '))
        --end;
    QString text;
    text.reserve(end);
    for (int c = 0; c < end; ++c) {
        const GridCell& cell = cells[c];
        if (cell.width == 0)
            continue;
        const char32_t ch = cell.ch == 0 ? U' ' : cell.ch;
        text += QString::fromUcs4(&ch, 1);
        if (cell.mark != 0)
            text += QString::fromUcs4(&cell.mark, 1);
    }
    return text;
}

void TerminalScreen::clearDamage()
{
    std::fill(m_rowDamage.begin(), m_rowDamage.end(), 0);
    m_damaged = false;
    m_allDamaged = false;
}

void TerminalScreen::damageRow(int r)
{
    if (r >= 0 && r < m_rows)
        m_rowDamage[r] = 1;
    m_damaged = true;
}

void TerminalScreen::damageAll()
{
    m_damaged = true;
    m_allDamaged = true;
}

void TerminalScreen::cursorMoved(int row, int col)
{
    if (m_wrapCandidate && (row != m_wrapRow || col != m_cols - 1))
        m_wrapCandidate = false;
    damageRow(m_cursorRow);
    m_cursorRow = row;
    m_cursorCol = col;
    damageRow(row);
}

void TerminalScreen::putGlyph(const uint32_t* chars, int width, bool protectedCell, int r, int c)
{
    if (r < 0 || r >= m_rows || c < 0 || c >= m_cols)
        return;
    if (c == 0 && m_wrapCandidate && r == m_wrapRow + 1)
        active().wrapped[physical(m_wrapRow)] = 1;
    m_wrapCandidate = c + std::max(1, width) >= m_cols;
    m_wrapRow = r;
    GridCell* line = rowPtr(r);
    // Overwriting half of a wide character blanks its other half.
    if (line[c].width == 0 && c > 0)
        line[c - 1] = blankCell(line[c - 1].attr);
    if (line[c].width == 2 && width < 2 && c + 1 < m_cols)
        line[c + 1] = blankCell(line[c + 1].attr);
    GridCell& cell = line[c];
    cell.ch = chars[0];
    cell.mark = chars[0] != 0 ? chars[1] : 0;
    cell.width = uint8_t(width);
    cell.attr = m_pen;
    if (protectedCell)
        cell.attr.flags |= Protected;
    if (width == 2 && c + 1 < m_cols) {
        if (line[c + 1].width == 2 && c + 2 < m_cols)
            line[c + 2] = blankCell(line[c + 2].attr);
        line[c + 1] = GridCell{0, 0, cell.attr, 0};
    }
    uint16_t& extent = extentOf(r);
    extent = std::max<uint16_t>(extent, uint16_t(std::min(m_cols, c + std::max(1, width))));
    m_rowDamage[r] = 1;
    m_damaged = true;
}

void TerminalScreen::clearRow(int r, const CellAttr& pen)
{
    GridCell* line = rowPtr(r);
    uint16_t& extent = extentOf(r);
    active().wrapped[physical(r)] = 0;
    if (pen.bg == kDefaultColor) {
        std::fill(line, line + extent, GridCell());
        extent = 0;
    } else {
        std::fill(line, line + m_cols, blankCell(pen));
        extent = uint16_t(m_cols);
    }
}

void TerminalScreen::pushRow(int r)
{
    m_scrollback.push(rowPtr(r), extentOf(r), active().wrapped[physical(r)] != 0);
}

void TerminalScreen::scrollRect(int top, int bottom, int left, int right, int down, int rightward)
{
    const int height = bottom - top;
    if (left == 0 && right == m_cols && rightward == 0 && height > 0) {
        // Whole rows: rotate the row map. Rows leaving the top of the primary screen go to the
        // scrollback (also with a scroll region from row 0, as apt's progress bar sets).
        const int n = std::min(std::abs(down), height);
        std::vector<int>& map = active().map;
        // A wrap in progress follows its row up; any other scroll ends it.
        if (m_wrapCandidate && (down < 0 || m_wrapRow < top || m_wrapRow >= bottom))
            m_wrapCandidate = false;
        m_wrapRow -= n;
        if (m_wrapRow < top)
            m_wrapCandidate = false;
        if (down > 0) {
            for (int i = 0; i < n; ++i) {
                if (top == 0 && !m_alt)
                    pushRow(top + i);
                clearRow(top + i, m_pen);
            }
            std::rotate(map.begin() + top, map.begin() + top + n, map.begin() + bottom);
        } else if (down < 0) {
            for (int i = 0; i < n; ++i)
                clearRow(bottom - 1 - i, m_pen);
            std::rotate(map.begin() + top, map.begin() + bottom - n, map.begin() + bottom);
        }
        for (int i = top; i < bottom; ++i)
            m_rowDamage[i] = 1;
        m_damaged = true;
        return;
    }
    m_wrapCandidate = false;
    VTermRect rect{top, bottom, left, right};
    vterm_scroll_rect(rect, down, rightward, &ScreenCallbacks::moverect, &ScreenCallbacks::erase,
                      this);
}

void TerminalScreen::moveRect(int destTop, int destLeft, int top, int bottom, int left, int right)
{
    const int width = right - left;
    auto moveRow = [&](int i) {
        GridCell* dst = rowPtr(destTop + i) + destLeft;
        const GridCell* src = rowPtr(top + i) + left;
        std::memmove(static_cast<void*>(dst), src, sizeof(GridCell) * width);
        uint16_t& extent = extentOf(destTop + i);
        extent = std::max<uint16_t>(extent, uint16_t(std::min(m_cols, destLeft + width)));
        damageRow(destTop + i);
    };
    if (destTop <= top) {
        for (int i = 0; i < bottom - top; ++i)
            moveRow(i);
    } else {
        for (int i = bottom - top - 1; i >= 0; --i)
            moveRow(i);
    }
}

void TerminalScreen::erase(int top, int bottom, int left, int right, bool selective)
{
    const GridCell blank = blankCell(m_pen);
    for (int r = std::max(0, top); r < std::min(bottom, m_rows); ++r) {
        GridCell* line = rowPtr(r);
        if (left > 0 && left < m_cols && line[left].width == 0)
            line[left - 1] = blankCell(line[left - 1].attr);
        if (right < m_cols && line[right].width == 0)
            line[right] = blankCell(line[right].attr);
        uint16_t& extent = extentOf(r);
        const int end = std::min(right, m_cols);
        if (end >= m_cols)
            active().wrapped[physical(r)] = 0; // the text no longer reaches the margin
        if (!selective && m_pen.bg == kDefaultColor && end >= extent) {
            std::fill(line + left, line + std::max(left, int(extent)), GridCell());
            extent = uint16_t(std::min(int(extent), left));
        } else {
            for (int c = left; c < end; ++c) {
                if (!selective || !(line[c].attr.flags & Protected))
                    line[c] = blank;
            }
            if (m_pen.bg != kDefaultColor)
                extent = std::max<uint16_t>(extent, uint16_t(end));
        }
        damageRow(r);
    }
}

void TerminalScreen::setAltScreen(bool on)
{
    if (on == m_alt)
        return;
    m_alt = on;
    if (on) {
        Grid& g = m_grids[1];
        std::fill(g.cells.begin(), g.cells.end(), blankCell(m_pen));
        std::fill(g.extent.begin(), g.extent.end(), uint16_t(m_pen.bg ? m_cols : 0));
        std::fill(g.wrapped.begin(), g.wrapped.end(), 0);
    }
    m_wrapCandidate = false;
    damageAll();
}

TerminalScreen::Grid TerminalScreen::blankGrid(int rows, int cols)
{
    Grid g;
    g.cells.assign(size_t(rows) * cols, GridCell());
    g.extent.assign(rows, 0);
    g.wrapped.assign(rows, 0);
    g.map.resize(rows);
    for (int r = 0; r < rows; ++r)
        g.map[r] = r;
    return g;
}

bool TerminalScreen::atPhantom() const
{
    return m_wrapCandidate && m_wrapRow == m_cursorRow && m_cursorCol == m_cols - 1;
}

void TerminalScreen::resizeGrids(int rows, int cols, int* cursorRowDelta, int* cursorColDelta)
{
    // A new width wraps the primary screen's lines again. Full-screen programs on the
    // alternate screen draw theirs anew on SIGWINCH, so that one is only cut or padded.
    if (cols != m_cols && !m_alt) {
        reflowPrimary(rows, cols, cursorRowDelta, cursorColDelta);
        return;
    }
    for (int index = 0; index < 2; ++index) {
        Grid& old = m_grids[index];
        const bool activeGrid = index == int(m_alt);
        const bool primary = index == 0 && !m_alt;
        Grid g = blankGrid(rows, cols);
        // Shrinking: blank rows below the cursor go first, then rows off the top (into the
        // scrollback on the primary screen) so the cursor stays on screen.
        int dropTop = 0;
        int keep = std::min(rows, m_rows);
        if (rows < m_rows && activeGrid) {
            int excess = m_rows - rows;
            for (int r = m_rows - 1; r > m_cursorRow && excess > 0; --r) {
                if (old.extent[old.map[r]] != 0)
                    break;
                --excess;
            }
            dropTop = excess;
            for (int r = 0; r < dropTop; ++r) {
                if (primary)
                    m_scrollback.push(&old.cells[size_t(old.map[r]) * m_cols],
                                      old.extent[old.map[r]], old.wrapped[old.map[r]] != 0);
            }
        }
        // Growing the primary screen brings lines back from the scrollback above it.
        int popped = 0;
        if (rows > m_rows && primary) {
            popped = std::min(rows - m_rows, m_scrollback.size());
            std::vector<GridCell> line(m_cols);
            for (int i = popped - 1; i >= 0; --i) {
                bool wrapped = false;
                m_scrollback.pop(line.data(), m_cols, &wrapped);
                const int n = std::min(cols, m_cols);
                std::copy(line.begin(), line.begin() + n, g.cells.begin() + size_t(i) * cols);
                int extent = n;
                while (extent > 0 && line[extent - 1].ch == 0 && line[extent - 1].attr.bg == 0)
                    --extent;
                g.extent[i] = uint16_t(extent);
                g.wrapped[i] = wrapped;
            }
        }
        keep = std::min(rows - popped, m_rows - dropTop);
        const int n = std::min(cols, m_cols);
        for (int r = 0; r < keep; ++r) {
            const int from = old.map[dropTop + r];
            GridCell* dst = &g.cells[size_t(popped + r) * cols];
            std::copy_n(&old.cells[size_t(from) * m_cols], n, dst);
            if (n < m_cols && n > 0 && dst[n - 1].width == 2)
                dst[n - 1] = blankCell(dst[n - 1].attr);
            g.extent[popped + r] = std::min<uint16_t>(old.extent[from], uint16_t(n));
            g.wrapped[popped + r] = old.wrapped[from];
        }
        if (activeGrid) {
            *cursorRowDelta = popped - dropTop;
            m_wrapRow += popped - dropTop;
        }
        old = std::move(g);
    }
    m_rows = rows;
    m_cols = cols;
    m_rowDamage.assign(rows, 1);
    damageAll();
}

void TerminalScreen::reflowPrimary(int rows, int cols, int* cursorRowDelta, int* cursorColDelta)
{
    // Every line, from the oldest of the scrollback to the last on screen that holds text or
    // the cursor, as rows of their written cells.
    Grid& old = m_grids[0];
    const int kept = m_scrollback.size();
    std::vector<ReflowRow> lines;
    lines.reserve(size_t(kept + m_rows));
    std::vector<GridCell> buffer;
    for (int i = 0; i < kept; ++i) {
        const ScrollbackLine& line = m_scrollback.line(i);
        buffer.resize(size_t(line.cells()));
        m_scrollback.cellsOf(i, buffer.data(), line.cells());
        lines.push_back({buffer, line.wrapped});
    }
    int last = m_cursorRow;
    for (int r = m_rows - 1; r > m_cursorRow; --r) {
        if (old.extent[old.map[r]] != 0) {
            last = r;
            break;
        }
    }
    for (int r = 0; r <= last; ++r) {
        const GridCell* cells = &old.cells[size_t(old.map[r]) * m_cols];
        lines.push_back({std::vector<GridCell>(cells, cells + old.extent[old.map[r]]),
                         old.wrapped[old.map[r]] != 0});
    }
    // The cursor past a glyph in the last column stands after it, where the next one goes.
    const bool phantom = atPhantom();
    ReflowPoint cursor{kept + m_cursorRow, m_cursorCol + (phantom ? 1 : 0)};
    ReflowPoint screenTop{kept, 0};
    std::vector<ReflowRow> wrapped = reflowRows(lines, cols, {&cursor, &screenTop});

    // The screen starts where its first row went, lower if the cursor would be off it, higher
    // (lines back from the scrollback) when it grew taller.
    int top = screenTop.row;
    top -= std::min(top, std::max(0, rows - m_rows));
    if (cursor.row - top >= rows)
        top = cursor.row - rows + 1;
    m_scrollback.clear();
    for (int i = 0; i < top; ++i)
        m_scrollback.push(wrapped[i].cells.data(), int(wrapped[i].cells.size()),
                          wrapped[i].wrapped);
    Grid g = blankGrid(rows, cols);
    for (int r = 0; r < rows && top + r < int(wrapped.size()); ++r) {
        const ReflowRow& row = wrapped[size_t(top + r)];
        std::copy(row.cells.begin(), row.cells.end(), g.cells.begin() + long(r) * cols);
        g.extent[r] = uint16_t(row.cells.size());
        g.wrapped[r] = row.wrapped;
    }
    m_grids[0] = std::move(g);
    m_grids[1] = blankGrid(rows, cols);
    // libvterm moves a cursor at the phantom column one on by itself when the new width has
    // room after it; the deltas are from where it will stand.
    const int fromCol = m_cursorCol + (phantom && m_cursorCol < cols - 1 ? 1 : 0);
    *cursorRowDelta = (cursor.row - top) - m_cursorRow;
    *cursorColDelta = cursor.col - fromCol;
    m_wrapCandidate = false;
    m_rows = rows;
    m_cols = cols;
    m_rowDamage.assign(rows, 1);
    damageAll();
}

} // namespace lizard::terminal
