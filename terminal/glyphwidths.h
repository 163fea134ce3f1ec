#pragma once
// What libvterm makes of a character: its width in cells (vterm_unicode_width, which libvterm
// 0.1 does not export) and whether it joins the glyph before it as a combining mark; and the
// characters of its two 94-character sets other than ASCII (DEC special graphics, UK).
// Learned from libvterm itself, one character at a time on first use, so the terminal's fast
// path for text draws what libvterm would, with no table of ours to drift from the library's.

#include <cstdint>

namespace lizard::terminal {

class GlyphWidths
{
public:
    struct Info
    {
        int8_t width = 1;       // as libvterm counts it: -1 for C1 controls, 0 for marks
        bool combining = false; // merges into the glyph before it
    };
    static Info of(char32_t ch);
    // The characters libvterm puts for bytes 0..127 when designation `set` ('0' DEC special
    // graphics, 'A' UK) is in GL (bytes it does not map are themselves).
    static const char32_t* table(char set);
};

} // namespace lizard::terminal
