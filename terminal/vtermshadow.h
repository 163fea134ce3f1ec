#pragma once
// The part of libvterm 0.1's state that decides where text goes and what it becomes, kept
// beside libvterm from what it is given: modes (autowrap, insert, newline, origin, left/right
// margins), the scroll region, the character sets and their UTF-8 decoders, the protected pen,
// the pending wrap ("phantom" column) and the last glyph put (which a combining mark or REP
// reuses). libvterm has no getters for these; the screen's fast path for text needs them to
// put text exactly where libvterm would, and libvterm is kept in step with it (see
// TerminalScreen's sync).

#include "terminal/terminaltokenizer.h"

#include <cstdint>
#include <string_view>

namespace lizard::terminal {

class VtermShadow
{
public:
    // The glyph libvterm would combine a following mark with, and where it put it.
    struct Glyph
    {
        int row = 0;
        int col = 0;
        int width = 0;
        uint32_t chars[2] = {0, 0}; // base, first mark (what the grid keeps)
        bool operator==(const Glyph&) const = default;
    };

    VtermShadow(int rows, int cols);

    // vterm_state_reset(hard): modes, margins, sets and most decoders back to their defaults.
    void reset();
    // vterm_set_size; `col` is the cursor's column before, `moved` whether it moved.
    void resized(int rows, int cols, int col, bool moved);
    // What libvterm did with a token other than text: whether it moved the cursor, and for REP
    // the glyphs it put from column `col` on a row `rowWidth` wide.
    struct Effect
    {
        bool moved = false;
        int glyphsPut = 0;
        int col = 0;
        int rowWidth = 0;
    };
    void tookToken(const TerminalTokenizer::Token& token, const Effect& effect);
    // After libvterm took text: its UTF-8 decoders and single shift as libvterm leaves them;
    // `last` the last glyph it put meanwhile (none when `glyphsPut` is 0) on a row `rowWidth`
    // wide.
    void tookText(std::string_view bytes, int glyphsPut, const Glyph& last, int rowWidth);
    // Whether libvterm's REP would loop for ever (it repeats the last glyph by its width).
    bool repHangs(const TerminalTokenizer::Token& token) const;

    // Which decoder a text call starting with byte `b` uses: 0-3 the character set in GL (or
    // single-shifted), 4 libvterm's UTF-8 decoder for bytes >= 0x80.
    int decoderFor(unsigned char b) const { return m_single ? m_single : (b < 0x80 ? m_gl : 4); }
    // The designation of set `n`: 'u' UTF-8, 'B' ASCII, '0' DEC special graphics, 'A' UK.
    char designation(int n) const { return n == 4 ? 'u' : m_sets[n]; }
    bool decodersClean() const;
    int singleShift() const { return m_single; }
    int rows() const { return m_rows; }
    int cols() const { return m_cols; }

    // Modes and margins, as libvterm has them.
    bool autowrap = true;
    bool insert = false;
    bool newline = false;   // LNM: LF also returns the carriage
    bool origin = false;    // DECOM
    bool lrMargins = false; // DECLRMM
    int top = 0;
    int bottom = -1; // -1: the last row
    int left = 0;
    int right = -1;
    bool protectedCell = false; // DECSCA
    bool phantom = false;       // a glyph was put in the last column; the next one wraps first
    bool doubleWidth = false;   // some line may be double width or height (then text is slow)
    bool defaultTabs = true;    // tab stops every 8 columns
    Glyph combine;              // libvterm's combine_* (zeroed at start, as libvterm's are)

    int regionBottom() const { return bottom > -1 ? bottom : m_rows; }

private:
    void escape(const TerminalTokenizer::Token& token, bool moved);
    void csi(const TerminalTokenizer::Token& token, const Effect& effect);
    void control(unsigned char c, bool moved);
    void decode(std::string_view bytes);

    int m_rows;
    int m_cols;
    char m_sets[4] = {'u', 'u', 'u', 'u'};
    int m_gl = 0;
    int m_single = 0;
    // Bytes libvterm's UTF-8 decoders still wait for: one per set (each has its own) and the
    // decoder of text that starts with a byte >= 0x80.
    int m_pending[5] = {0, 0, 0, 0, 0};
};

} // namespace lizard::terminal
