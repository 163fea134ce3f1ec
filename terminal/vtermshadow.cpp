#include "terminal/vtermshadow.h"

#include <algorithm>
#include <vterm.h>

namespace lizard::terminal {

namespace {

// One byte through libvterm 0.1's UTF-8 decoder (decode_utf8): the bytes it still waits for
// afterwards, and how many codepoints it gave.
int utf8Step(int& pending, unsigned char c)
{
    int points = 0;
    if (c < 0x80) {
        points = pending ? 2 : 1; // an unfinished character before ASCII is U+FFFD
        pending = 0;
    } else if (c < 0xc0) {
        if (!pending)
            return 1;
        if (--pending == 0)
            points = 1;
    } else if (c < 0xfe) {
        points = pending ? 1 : 0;
        pending = c < 0xe0 ? 1 : c < 0xf0 ? 2 : c < 0xf8 ? 3 : c < 0xfc ? 4 : 5;
    } else {
        points = 1;
    }
    return points;
}

} // namespace

VtermShadow::VtermShadow(int rows, int cols) : m_rows(rows), m_cols(cols) {}

void VtermShadow::reset()
{
    autowrap = true;
    insert = false;
    newline = false;
    origin = false;
    lrMargins = false;
    top = 0;
    bottom = -1;
    left = 0;
    right = -1;
    protectedCell = false;
    phantom = false;
    doubleWidth = false;
    defaultTabs = true;
    std::fill(std::begin(m_sets), std::end(m_sets), 'u');
    m_gl = 0;
    m_single = 0;
    // Each set's decoder starts anew; libvterm leaves the one for bytes >= 0x80 as it was.
    std::fill(m_pending, m_pending + 4, 0);
}

void VtermShadow::resized(int rows, int cols, int col, bool moved)
{
    if (moved || (phantom && col < cols - 1))
        phantom = false; // libvterm steps past the glyph, or the move ends the pending wrap
    m_rows = rows;
    m_cols = cols;
    if (bottom > -1)
        bottom = std::min(bottom, rows);
    if (right > -1)
        right = std::min(right, cols);
}

bool VtermShadow::decodersClean() const
{
    for (int i = 0; i < 5; ++i) {
        if (m_pending[i] != 0 && (i == 4 || m_sets[i] == 'u'))
            return false;
    }
    return true;
}

bool VtermShadow::repHangs(const TerminalTokenizer::Token& token) const
{
    return token.kind == TerminalTokenizer::Token::Csi && token.final == 'b' &&
           token.leader.empty() && token.intermed.empty() && combine.width <= 0;
}

void VtermShadow::tookText(std::string_view bytes, int glyphsPut, const Glyph& last, int rowWidth)
{
    decode(bytes);
    if (glyphsPut == 0)
        return;
    // Each glyph libvterm puts while reading text clears the pending wrap (it wrapped first)
    // or sets it (it reached the last column); the last one decides.
    phantom = autowrap && last.col + last.width >= rowWidth;
    combine = last;
}

void VtermShadow::decode(std::string_view bytes)
{
    // As libvterm's parser hands text to on_text, one call after another: each call's decoder
    // is chosen by its first byte and reads until it stops.
    size_t pos = 0;
    while (pos < bytes.size()) {
        const auto first = static_cast<unsigned char>(bytes[pos]);
        const int decoder = decoderFor(first);
        const bool single = m_single != 0;
        const int limit = single ? 1 : int(bytes.size());
        int points = 0;
        size_t eaten = 0;
        if (designation(decoder) == 'u') {
            int& pending = m_pending[decoder];
            while (pos + eaten < bytes.size() && points < limit) {
                points += utf8Step(pending, static_cast<unsigned char>(bytes[pos + eaten]));
                ++eaten;
            }
        } else {
            const unsigned gr = first & 0x80;
            while (pos + eaten < bytes.size() && points < limit) {
                const unsigned c = static_cast<unsigned char>(bytes[pos + eaten]) ^ gr;
                if (c < 0x20 || c == 0x7f || c >= 0x80)
                    break;
                ++points;
                ++eaten;
            }
        }
        if (points > 0 && single)
            m_single = 0;
        pos += std::max<size_t>(eaten, 1); // libvterm's parser moves on by a byte at least
    }
}

void VtermShadow::tookToken(const TerminalTokenizer::Token& token, const Effect& effect)
{
    using Token = TerminalTokenizer::Token;
    switch (token.kind) {
    case Token::Control:
        control(static_cast<unsigned char>(token.bytes[0]), effect.moved);
        break;
    case Token::Escape:
        escape(token, effect.moved);
        break;
    case Token::Csi:
        csi(token, effect);
        break;
    case Token::String:
    case Token::Text:
        break;
    }
}

void VtermShadow::control(unsigned char c, bool moved)
{
    // libvterm's on_control: a move ends a pending wrap; shifts pick a set for GL or the next
    // character; HTS sets a tab stop.
    if (moved)
        phantom = false;
    switch (c) {
    case 0x0e:
        m_gl = 1;
        break;
    case 0x0f:
        m_gl = 0;
        break;
    case 0x88:
        defaultTabs = false;
        break;
    case 0x8e:
        m_single = 2;
        break;
    case 0x8f:
        m_single = 3;
        break;
    default:
        break;
    }
}

void VtermShadow::escape(const TerminalTokenizer::Token& token, bool moved)
{
    const std::string_view seq = token.bytes.substr(1); // intermediates and final, or the C1
    if (token.intermed.empty() && token.final >= 0x40 && token.final < 0x60) {
        control(static_cast<unsigned char>(token.final + 0x40), moved);
        return;
    }
    if (moved)
        phantom = false; // DECRC, RIS
    // libvterm's on_escape looks at the first byte, and at the length for some.
    const std::string_view code = std::string_view(token.intermed).empty()
                                      ? std::string_view(&token.final, 1)
                                      : std::string_view(token.intermed);
    (void)seq;
    const char first = code[0];
    const size_t length = token.intermed.size() + 1;
    switch (first) {
    case '(':
    case ')':
    case '*':
    case '+':
        if (length == 2 && (token.final == '0' || token.final == 'A' || token.final == 'B'))
            m_sets[first - '('] = token.final;
        break;
    case 'c':
        reset();
        phantom = false;
        break;
    case 'n':
        m_gl = 2;
        break;
    case 'o':
        m_gl = 3;
        break;
    default:
        break;
    }
}

void VtermShadow::csi(const TerminalTokenizer::Token& token, const Effect& effect)
{
    // As libvterm's on_csi picks the handler: one leader byte ('?' or '>') at most, one
    // intermediate (' ', '"', '$', '\'') at most; anything else it leaves alone.
    if (token.leader.size() > 1 || token.intermed.size() > 1)
        return;
    const char leader = token.leader.empty() ? 0 : token.leader[0];
    const char intermed = token.intermed.empty() ? 0 : token.intermed[0];
    if (leader != 0 && leader != '?' && leader != '>')
        return;
    if (intermed != 0 && intermed != ' ' && intermed != '"' && intermed != '$' && intermed != '\'')
        return;
    const long* args = token.args.data();
    const int argCount = token.argCount;
    if (effect.moved)
        phantom = false;
    if (leader == 0 && intermed == 0) {
        switch (token.final) {
        // Cursor moves end a pending wrap even where the cursor does not move.
        case 'A':
        case 'B':
        case 'C':
        case 'D':
        case 'E':
        case 'F':
        case 'G':
        case 'H':
        case '`':
        case 'a':
        case 'd':
        case 'e':
        case 'f':
        case 'j':
        case 'k':
            phantom = false;
            break;
        case 'b': { // REP puts the last glyph again; at the last column it leaves a pending wrap
            const int end = effect.col + effect.glyphsPut * combine.width;
            if (autowrap && end + combine.width >= effect.rowWidth)
                phantom = true;
            break;
        }
        case 'g': {
            const long val = CSI_ARG_OR(args[0], 0);
            if (val == 0 || val == 3 || val == 5)
                defaultTabs = false;
            break;
        }
        case 'h':
        case 'l':
            if (!CSI_ARG_IS_MISSING(args[0])) {
                const long mode = CSI_ARG(args[0]);
                if (mode == 4)
                    insert = token.final == 'h';
                else if (mode == 20)
                    newline = token.final == 'h';
            }
            break;
        case 'r':
            top = int(CSI_ARG_OR(args[0], 1)) - 1;
            bottom = argCount < 2 || CSI_ARG_IS_MISSING(args[1]) ? -1 : int(CSI_ARG(args[1]));
            top = std::clamp(top, 0, m_rows);
            bottom = std::max(bottom, -1);
            if (top == 0 && bottom == m_rows)
                bottom = -1;
            else
                bottom = std::min(bottom, m_rows);
            if (regionBottom() <= top) {
                top = 0;
                bottom = -1;
            }
            break;
        case 's':
            left = int(CSI_ARG_OR(args[0], 1)) - 1;
            right = argCount < 2 || CSI_ARG_IS_MISSING(args[1]) ? -1 : int(CSI_ARG(args[1]));
            left = std::clamp(left, 0, m_cols);
            right = std::max(right, -1);
            if (left == 0 && right == m_cols)
                right = -1;
            else
                right = std::min(right, m_cols);
            if (right > -1 && right <= left) {
                left = 0;
                right = -1;
            }
            break;
        default:
            break;
        }
        return;
    }
    if (leader == '?' && intermed == 0 && (token.final == 'h' || token.final == 'l')) {
        if (CSI_ARG_IS_MISSING(args[0]))
            return;
        const bool on = token.final == 'h';
        switch (CSI_ARG(args[0])) {
        case 6:
            origin = on;
            break;
        case 7:
            autowrap = on;
            break;
        case 69:
            lrMargins = on;
            break;
        default:
            break;
        }
        return;
    }
    if (leader == 0 && intermed == '"' && token.final == 'q') {
        const long val = CSI_ARG_OR(args[0], 0);
        if (val == 0 || val == 2)
            protectedCell = false;
        else if (val == 1)
            protectedCell = true;
    }
}

} // namespace lizard::terminal
