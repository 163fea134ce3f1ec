#pragma once
// UTF-8 as the terminal's fast path needs it: encoding a character, and decoding one only when
// libvterm's decoder would read the same character from the same bytes.

#include <cstdint>
#include <string>

namespace lizard::terminal {

inline void appendUtf8(std::string& out, char32_t ch)
{
    if (ch < 0x80) {
        out += char(ch);
    } else if (ch < 0x800) {
        out += char(0xc0 | (ch >> 6));
        out += char(0x80 | (ch & 0x3f));
    } else if (ch < 0x10000) {
        out += char(0xe0 | (ch >> 12));
        out += char(0x80 | ((ch >> 6) & 0x3f));
        out += char(0x80 | (ch & 0x3f));
    } else {
        out += char(0xf0 | (ch >> 18));
        out += char(0x80 | ((ch >> 12) & 0x3f));
        out += char(0x80 | ((ch >> 6) & 0x3f));
        out += char(0x80 | (ch & 0x3f));
    }
}

// One character at `p`, 1-4 bytes, no overlong form, no surrogate, not U+FFFE or U+FFFF, at
// most U+10FFFF (what libvterm's decoder reads back unchanged). Returns its length, 0 if the
// bytes are anything else or end too soon.
inline int decodeUtf8(const unsigned char* p, const unsigned char* end, char32_t* out)
{
    const unsigned char c = p[0];
    if (c < 0x80) {
        *out = c;
        return 1;
    }
    int length = 0;
    char32_t ch = 0;
    char32_t least = 0;
    if (c >= 0xc2 && c < 0xe0) {
        length = 2;
        ch = c & 0x1f;
        least = 0x80;
    } else if (c >= 0xe0 && c < 0xf0) {
        length = 3;
        ch = c & 0x0f;
        least = 0x800;
    } else if (c >= 0xf0 && c < 0xf5) {
        length = 4;
        ch = c & 0x07;
        least = 0x10000;
    } else {
        return 0;
    }
    if (end - p < length)
        return 0;
    for (int i = 1; i < length; ++i) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        ch = (ch << 6) | (p[i] & 0x3f);
    }
    if (ch < least || ch > 0x10ffff || (ch >= 0xd800 && ch <= 0xdfff) || ch == 0xfffe ||
        ch == 0xffff)
        return 0;
    *out = ch;
    return length;
}

} // namespace lizard::terminal
