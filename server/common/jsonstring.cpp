#include "common/jsonstring.h"

#include <array>
#include <cstdint>
#include <cstring>

namespace lizard {

namespace {

constexpr char kReplacement[] = "\xEF\xBF\xBD";

// Bytes that cannot be copied into a JSON string as they are (or need UTF-8 validation).
constexpr std::array<bool, 256> makeSpecial()
{
    std::array<bool, 256> t{};
    for (int c = 0; c < 256; ++c)
        t[size_t(c)] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
    return t;
}
constexpr auto kSpecial = makeSpecial();

// True if any of the 8 bytes is special (SWAR: control, non-ASCII, quote or backslash).
inline bool needsWork(uint64_t x)
{
    constexpr uint64_t ones = 0x0101010101010101ULL;
    constexpr uint64_t highs = 0x8080808080808080ULL;
    const auto hasZero = [](uint64_t v) { return ((v - ones) & ~v & highs) != 0; };
    const bool nonAscii = (x & highs) != 0;
    const bool control = ((x - ones * 0x20) & ~x & highs) != 0;
    return nonAscii || control || hasZero(x ^ (ones * '"')) || hasZero(x ^ (ones * '\\'));
}

// Length of the valid UTF-8 sequence at s[i], or 0 if the bytes there are not one.
size_t validSequence(std::string_view s, size_t i)
{
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    const size_t left = s.size() - i;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return left >= 2 && (b(i + 1) & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (left < 3 || (b(i + 1) & 0xC0) != 0x80 || (b(i + 2) & 0xC0) != 0x80)
            return 0;
        if (c == 0xE0 && b(i + 1) < 0xA0)
            return 0; // overlong
        if (c == 0xED && b(i + 1) >= 0xA0)
            return 0; // surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (left < 4 || (b(i + 1) & 0xC0) != 0x80 || (b(i + 2) & 0xC0) != 0x80 ||
            (b(i + 3) & 0xC0) != 0x80)
            return 0;
        if (c == 0xF0 && b(i + 1) < 0x90)
            return 0; // overlong
        if (c == 0xF4 && b(i + 1) >= 0x90)
            return 0; // above U+10FFFF
        return 4;
    }
    return 0;
}

} // namespace

void appendJsonString(std::string& out, std::string_view s)
{
    static const char* hex = "0123456789abcdef";
    out.reserve(out.size() + s.size() + 2);
    out.push_back('"');
    const char* p = s.data();
    const size_t n = s.size();
    size_t i = 0;
    while (i < n) {
        // Fast path: a run of printable ASCII that needs no escaping, 8 bytes at a time.
        size_t j = i;
        while (j + 8 <= n) {
            uint64_t x;
            std::memcpy(&x, p + j, 8);
            if (needsWork(x))
                break;
            j += 8;
        }
        while (j < n && !kSpecial[static_cast<unsigned char>(p[j])])
            ++j;
        out.append(p + i, j - i);
        i = j;
        if (i >= n)
            break;
        const unsigned char c = static_cast<unsigned char>(p[i]);
        if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(char(c));
            ++i;
        } else if (c < 0x20) {
            switch (c) {
            case '\n':
                out.append("\\n");
                break;
            case '\r':
                out.append("\\r");
                break;
            case '\t':
                out.append("\\t");
                break;
            case '\b':
                out.append("\\b");
                break;
            case '\f':
                out.append("\\f");
                break;
            default:
                out.append("\\u00");
                out.push_back(hex[c >> 4]);
                out.push_back(hex[c & 0xf]);
            }
            ++i;
        } else {
            const size_t len = validSequence(s, i);
            if (len == 0) {
                out.append(kReplacement);
                ++i;
            } else {
                out.append(p + i, len);
                i += len;
            }
        }
    }
    out.push_back('"');
}

} // namespace lizard
