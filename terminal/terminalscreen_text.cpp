// TerminalScreen: the program's bytes in. Text goes into the grid here, as libvterm 0.1's
// on_text would put it (the wrap at the margin, the pending wrap, insert mode, scroll regions,
// wide characters, combining marks, the character set in GL); libvterm gets everything else.
// Before libvterm reads anything whose meaning depends on the cursor, it is brought in step
// (sync): the cursor is moved where the text left it and the last glyph is given to it again
// (its callbacks ignored), so that its pending wrap and the glyph a later combining mark or
// REP refers to are the ones it would have had. SGR does not depend on the cursor and goes to
// libvterm straight away, so coloured output stays on the fast path.

#include "terminal/glyphwidths.h"
#include "terminal/terminalscreen.h"
#include "terminal/utf8.h"

#include <algorithm>
#include <cstring>
#include <vterm.h>

namespace lizard::terminal {

namespace {

using Token = TerminalTokenizer::Token;

bool spacing(GlyphWidths::Info info)
{
    return !info.combining && (info.width == 1 || info.width == 2);
}

bool mark(GlyphWidths::Info info)
{
    return info.combining && info.width == 0;
}

// Plain ASCII under UTF-8 needs none of fastCallOk's decoding: every byte is a glyph of its
// own that sync can give back. Eight bytes at a time.
bool asciiOnly(std::string_view bytes)
{
    const char* p = bytes.data();
    const char* const end = p + bytes.size();
    for (; end - p >= 8; p += 8) {
        uint64_t word;
        std::memcpy(&word, p, 8);
        if (word & 0x8080808080808080ull)
            return false;
    }
    for (; p < end; ++p) {
        if (static_cast<unsigned char>(*p) >= 0x80)
            return false;
    }
    return true;
}

bool isSgr(const Token& token)
{
    return token.kind == Token::Csi && token.final == 'm' && token.leader.empty() &&
           token.intermed.empty();
}

} // namespace

void TerminalScreen::setFastPath(bool on)
{
    sync();
    m_fastPath = on;
}

void TerminalScreen::write(const char* bytes, size_t length)
{
    if (!m_fastPath) {
        vterm_input_write(m_vt, bytes, length);
        return;
    }
    m_tokenizer.begin(bytes, length);
    Token token;
    while (m_tokenizer.next(token)) {
        switch (token.kind) {
        case Token::Text:
            text(token.bytes);
            break;
        case Token::Control:
            control(static_cast<unsigned char>(token.bytes[0]));
            break;
        default:
            feed(token);
            break;
        }
    }
}

bool TerminalScreen::fastTextAllowed() const
{
    // Double-width lines and left/right margins are libvterm's alone; with origin mode the
    // cursor must be in the scroll region, where sync's CUP can reach it.
    return !m_shadow.lrMargins && !m_shadow.doubleWidth && m_shadow.singleShift() == 0 &&
           m_shadow.decodersClean() &&
           (!m_shadow.origin ||
            (m_cursorRow >= m_shadow.top && m_cursorRow < m_shadow.regionBottom()));
}

void TerminalScreen::text(std::string_view bytes)
{
    size_t pos = 0;
    while (pos < bytes.size()) {
        if (!fastTextAllowed()) {
            slowText(bytes.substr(pos));
            return;
        }
        // One on_text call of libvterm's: its decoder is chosen by the first byte; UTF-8 reads
        // to the end of the run, ASCII and the 94-character sets stop at a byte >= 0x80.
        const int decoder = m_shadow.decoderFor(static_cast<unsigned char>(bytes[pos]));
        const char set = m_shadow.designation(decoder);
        size_t end = pos;
        if (set == 'u') {
            end = bytes.size();
        } else {
            while (end < bytes.size() && static_cast<unsigned char>(bytes[end]) < 0x80)
                ++end;
        }
        const std::string_view call = bytes.substr(pos, end - pos);
        if (set != 'u' || asciiOnly(call) || fastCallOk(call))
            fastCall(call, set);
        else
            slowText(call);
        pos = end;
    }
}

bool TerminalScreen::replayable(char32_t base, char32_t markChar) const
{
    // sync gives libvterm the last glyph again as UTF-8. A base >= 0x80 is read by libvterm's
    // UTF-8 decoder whatever is in GL, its mark with it; an ASCII base is read by GL's set,
    // which must give it back unchanged and keep a mark in the same call (only UTF-8 does).
    if (base >= 0x20 && base < 0x7f && m_shadow.designation(m_shadow.decoderFor(0x20)) == 'u')
        return true;
    if (base == 0 || GlyphWidths::of(base).combining)
        return false;
    if (base >= 0x80)
        return true;
    const char gl = m_shadow.designation(m_shadow.decoderFor(0x20));
    if (gl == 'u')
        return true;
    if (markChar != 0)
        return false;
    return gl == 'B' || GlyphWidths::table(gl)[base] == base;
}

bool TerminalScreen::fastCallOk(std::string_view call) const
{
    const auto* p = reinterpret_cast<const unsigned char*>(call.data());
    const auto* end = p + call.size();
    bool first = true;
    char32_t base = 0;
    char32_t firstMark = 0;
    while (p < end) {
        if (*p < 0x80 && (p + 1 == end || p[1] < 0x80)) {
            // ASCII followed by ASCII: a glyph of its own, replayable when GL allows.
            if (!replayable(*p, 0))
                return false;
            base = *p;
            firstMark = 0;
            first = false;
            ++p;
            continue;
        }
        char32_t ch = 0;
        const int length = decodeUtf8(p, end, &ch);
        if (length == 0)
            return false; // libvterm's decoder would give U+FFFD or wait: its business
        p += length;
        const GlyphWidths::Info info = GlyphWidths::of(ch);
        if (mark(info)) {
            if (first) {
                // A mark first joins libvterm's last glyph if the cursor has not moved since;
                // anything else (a mark on its own) stays libvterm's.
                const VtermShadow::Glyph& c = m_shadow.combine;
                if (m_cursorRow != c.row || m_cursorCol != c.col + c.width)
                    return false;
                base = c.chars[0];
                firstMark = c.chars[1];
            }
            if (firstMark == 0) {
                firstMark = ch;
                if (!replayable(base, firstMark))
                    return false;
            }
        } else if (spacing(info)) {
            if (!replayable(ch, 0))
                return false;
            base = ch;
            firstMark = 0;
        } else {
            return false; // C1 controls (width -1) and zero-width characters
        }
        first = false;
    }
    return true;
}

void TerminalScreen::fastCall(std::string_view call, char set)
{
    const auto* p = reinterpret_cast<const unsigned char*>(call.data());
    const auto* end = p + call.size();
    int row = m_cursorRow;
    int col = m_cursorCol;
    bool phantom = m_shadow.phantom;
    VtermShadow::Glyph& last = m_shadow.combine;
    const bool table = set == '0' || set == 'A';
    const char32_t* map = table ? GlyphWidths::table(set) : nullptr;
    const bool ascii = set != 'u';
    const bool protectedCell = m_shadow.protectedCell;
    bool putAny = false;

    // Marks at the start of the call join the last glyph, which libvterm puts again with them
    // (fastCallOk saw that they may).
    if (!ascii) {
        char32_t ch = 0;
        int length = 0;
        bool joined = false;
        while (p < end && *p >= 0x80 && (length = decodeUtf8(p, end, &ch)) > 0 &&
               GlyphWidths::of(ch).combining) {
            p += length;
            if (last.chars[1] == 0)
                last.chars[1] = ch;
            joined = true;
        }
        if (joined) {
            putGlyph(last.chars, last.width, protectedCell, last.row, last.col);
            putAny = true;
        }
    }
    while (p < end) {
        // A run of ASCII up to the margin, at once. (Under UTF-8 the last byte before a
        // non-ASCII one is left to the loop below: a mark may follow it.)
        if (*p < 0x80 && !phantom && !m_shadow.insert) {
            const auto room = size_t(m_cols - col);
            const unsigned char* q = p;
            while (q < end && *q < 0x80 && size_t(q - p) < room)
                ++q;
            if (!ascii && q < end && *q >= 0x80)
                --q;
            if (q > p) {
                const int n = int(q - p);
                putAscii(row, col, p, n, map, protectedCell);
                last = {row, col + n - 1, 1, {map ? map[q[-1]] : q[-1], 0}};
                putAny = true;
                col += n;
                if (col >= m_cols) {
                    col = m_cols - 1;
                    phantom = m_shadow.autowrap;
                }
                p = q;
                continue;
            }
        }
        uint32_t chars[2] = {0, 0};
        int width = 1;
        if (*p < 0x80) {
            chars[0] = table ? map[*p] : char32_t(*p);
            ++p;
        } else {
            char32_t ch = 0;
            p += decodeUtf8(p, end, &ch);
            chars[0] = ch;
            width = GlyphWidths::of(ch).width;
        }
        // The marks after it are part of the glyph (libvterm keeps them all; the grid keeps
        // the first).
        if (!ascii) {
            char32_t ch = 0;
            int length = 0;
            while (p < end && *p >= 0x80 && (length = decodeUtf8(p, end, &ch)) > 0 &&
                   GlyphWidths::of(ch).combining) {
                p += length;
                if (chars[1] == 0)
                    chars[1] = ch;
            }
        }
        if (phantom || col + width > m_cols) {
            fastLinefeed(row);
            col = 0;
            phantom = false;
        }
        if (m_shadow.insert)
            vtScroll(row, row + 1, col, m_cols, 0, -1);
        putGlyph(chars, width, protectedCell, row, col);
        last = {row, col, width, {chars[0], chars[1]}};
        putAny = true;
        if (col + width >= m_cols) {
            if (m_shadow.autowrap)
                phantom = true;
        } else {
            col += width;
        }
    }
    m_shadow.phantom = phantom;
    if (putAny) {
        m_replayGlyph = true;
        m_inSync = false;
    }
    if (row != m_cursorRow || col != m_cursorCol) {
        cursorMoved(row, col);
        m_inSync = false;
    }
}

void TerminalScreen::putAscii(int row, int col, const unsigned char* bytes, int n,
                              const char32_t* map, bool protectedCell)
{
    // What putGlyph does for each of n glyphs of width 1 in a row, at once when the cells they
    // cover are all of width 1 too. Otherwise glyph by glyph: a wide character cut in two, or a
    // right half left alone, blanks a neighbour, which may be a glyph of this run.
    GridCell* line = rowPtr(row);
    const int endCol = col + n;
    for (int c = col; c < endCol; ++c) {
        if (line[c].width != 1) {
            for (int i = 0; i < n; ++i) {
                const uint32_t chars[2] = {map ? map[bytes[i]] : char32_t(bytes[i]), 0};
                putGlyph(chars, 1, protectedCell, row, col + i);
            }
            return;
        }
    }
    if (col == 0 && m_wrapCandidate && row == m_wrapRow + 1)
        active().wrapped[physical(m_wrapRow)] = 1;
    CellAttr attr = m_pen;
    if (protectedCell)
        attr.flags |= Protected;
    for (int i = 0; i < n; ++i)
        line[col + i] = GridCell{map ? map[bytes[i]] : char32_t(bytes[i]), 0, attr, 1};
    uint16_t& extent = extentOf(row);
    extent = std::max<uint16_t>(extent, uint16_t(endCol));
    m_wrapCandidate = endCol >= m_cols;
    m_wrapRow = row;
    m_rowDamage[row] = 1;
    m_damaged = true;
}

void TerminalScreen::fastLinefeed(int& row)
{
    // libvterm's linefeed(): the last row of the scroll region scrolls it, any other moves
    // down (below the region, to the screen's last row).
    if (row == m_shadow.regionBottom() - 1)
        vtScroll(m_shadow.top, m_shadow.regionBottom(), 0, m_cols, 1, 0);
    else if (row < m_rows - 1)
        ++row;
}

void TerminalScreen::vtScroll(int top, int bottom, int left, int right, int down, int rightward)
{
    // libvterm's scroll(), which then calls our scrollrect.
    if (down == 0 && rightward == 0)
        return;
    const int rows = bottom - top;
    down = std::clamp(down, -rows, rows);
    const int cols = right - left;
    rightward = std::clamp(rightward, -cols, cols);
    scrollRect(top, bottom, left, right, down, rightward);
}

void TerminalScreen::control(unsigned char c)
{
    // The controls that move the cursor within text are the fast path's while libvterm is out
    // of step anyway; otherwise libvterm takes them (it is as quick for one).
    const bool movesOnly = c == '\r' || c == '\n' || c == 0x0b || c == 0x0c || c == 0x08 ||
                           (c == '\t' && m_shadow.defaultTabs);
    if (!movesOnly || m_inSync || !fastTextAllowed()) {
        Token token;
        token.kind = Token::Control;
        token.bytes = std::string_view(reinterpret_cast<const char*>(&c), 1);
        feed(token);
        return;
    }
    int row = m_cursorRow;
    int col = m_cursorCol;
    switch (c) {
    case '\r':
        col = 0;
        break;
    case '\n':
    case 0x0b:
    case 0x0c:
        fastLinefeed(row);
        if (m_shadow.newline)
            col = 0;
        break;
    case 0x08:
        if (col > 0)
            --col;
        break;
    case '\t':
        // libvterm's tab() with a stop every 8 columns, never past the last column
        while (col < m_cols - 1) {
            ++col;
            if (col % 8 == 0)
                break;
        }
        break;
    default:
        break;
    }
    if (row != m_cursorRow || col != m_cursorCol) {
        m_shadow.phantom = false;
        cursorMoved(row, col);
    }
}

void TerminalScreen::slowText(std::string_view bytes)
{
    sync();
    m_glyphsPut = 0;
    vtWrite(bytes);
    m_shadow.tookText(bytes, m_glyphsPut, m_lastPut, rowWidth(m_lastPut.row));
}

void TerminalScreen::feed(const Token& token)
{
    const bool bell = token.kind == Token::Control && token.bytes[0] == 0x07;
    if (isSgr(token) || bell) {
        vtWrite(token.bytes); // the pen and the bell do not care where the cursor is
        return;
    }
    sync();
    if (m_shadow.repHangs(token))
        return; // libvterm 0.1 repeats a glyph of width 0 for ever
    m_moves = 0;
    m_glyphsPut = 0;
    const int col = m_cursorCol;
    vtWrite(token.bytes);
    if (m_dwlRecheck)
        recheckDoubleWidth();
    m_shadow.tookToken(token, {m_moves > 0, m_glyphsPut, col, rowWidth(m_cursorRow)});
}

void TerminalScreen::vtWrite(std::string_view bytes)
{
    vterm_input_write(m_vt, bytes.data(), bytes.size());
}

void TerminalScreen::sync()
{
    if (m_inSync)
        return;
    // Where libvterm will stand: after the last glyph given again, or where it is.
    std::string& seq = m_syncBytes;
    seq.clear();
    const int originRow = m_shadow.origin ? m_shadow.top : 0;
    auto cup = [&](int row, int col) {
        seq += "\x1b[";
        seq += std::to_string(row - originRow + 1);
        seq += ';';
        seq += std::to_string(col + 1);
        seq += 'H';
    };
    bool placed = false;
    if (m_replayGlyph) {
        const VtermShadow::Glyph& g = m_shadow.combine;
        cup(g.row, g.col);
        appendUtf8(seq, g.chars[0]);
        if (g.chars[1] != 0)
            appendUtf8(seq, g.chars[1]);
        const bool wraps = g.col + g.width >= m_cols;
        const int col = wraps ? g.col : g.col + g.width;
        const bool phantom = wraps && m_shadow.autowrap;
        placed = g.row == m_cursorRow && col == m_cursorCol && phantom == m_shadow.phantom;
    }
    if (!placed)
        cup(m_cursorRow, m_cursorCol); // no pending wrap here: a move since ended it
    m_syncing = true;
    vtWrite(seq);
    m_syncing = false;
    m_inSync = true;
    m_replayGlyph = false;
}

int TerminalScreen::rowWidth(int row) const
{
    if (!m_shadow.doubleWidth || row < 0 || row >= m_rows)
        return m_cols;
    const VTermLineInfo* info = vterm_state_get_lineinfo(m_state, row);
    return info->doublewidth ? m_cols / 2 : m_cols;
}

void TerminalScreen::recheckDoubleWidth()
{
    m_dwlRecheck = false;
    for (int r = 0; r < m_rows; ++r) {
        const VTermLineInfo* info = vterm_state_get_lineinfo(m_state, r);
        if (info->doublewidth || info->doubleheight)
            return;
    }
    m_shadow.doubleWidth = false;
}

} // namespace lizard::terminal
