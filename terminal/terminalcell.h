#pragma once
// The cell of the terminal grid as the model stores it: 20 bytes, colours still symbolic
// (default, palette index or RGB) so a theme change recolours what is already on screen.

#include <cstdint>

namespace lizard::terminal {

// A colour as stored: 0 is the default colour, kIndexed|n is palette entry n, kRgb|0xRRGGBB.
using ColorCode = uint32_t;
constexpr ColorCode kDefaultColor = 0;
constexpr ColorCode kIndexed = 0x01000000;
constexpr ColorCode kRgb = 0x02000000;

enum CellFlag : uint16_t {
    Bold = 1,
    Italic = 2,
    Underline = 4,
    Reverse = 8,
    Strike = 16,
    Blink = 32,
    Protected = 64, // DECSCA: survives a selective erase
};

struct CellAttr
{
    ColorCode fg = kDefaultColor;
    ColorCode bg = kDefaultColor;
    uint16_t flags = 0;
    bool operator==(const CellAttr&) const = default;
};

struct GridCell
{
    char32_t ch = 0;   // 0: never written (shown as a space)
    char32_t mark = 0; // one combining mark, 0 when none
    CellAttr attr;
    uint8_t width = 1; // 2: a wide character; 0: the right half of the wide one before it
};

// A blank cell as an erase leaves it: the pen's colours, no other attribute.
inline GridCell blankCell(const CellAttr& pen)
{
    GridCell cell;
    cell.attr.fg = pen.fg;
    cell.attr.bg = pen.bg;
    return cell;
}

} // namespace lizard::terminal
