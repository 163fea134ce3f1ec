#include "terminal/terminaltokenizer.h"

#include <vterm.h>

namespace lizard::terminal {

namespace {

constexpr unsigned char kEsc = 0x1b;

// Every C0 control as a one-byte string, so a Control token needs no storage.
constexpr char kControls[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

bool isText(unsigned char c)
{
    return c >= 0x20 && c != 0x7f;
}

// Bytes at the end of [begin, end) that start a UTF-8 sequence libvterm's decoder would still
// be waiting to finish (a lead byte and fewer continuation bytes than it announces); 0 if none.
size_t trailingPartial(const char* begin, const char* end)
{
    const char* p = end;
    int continuations = 0;
    while (p > begin && continuations < 5 && (static_cast<unsigned char>(p[-1]) & 0xc0) == 0x80) {
        --p;
        ++continuations;
    }
    if (p == begin)
        return 0;
    const auto lead = static_cast<unsigned char>(p[-1]);
    int needs = 0;
    if (lead >= 0xc0 && lead < 0xe0)
        needs = 1;
    else if (lead >= 0xe0 && lead < 0xf0)
        needs = 2;
    else if (lead >= 0xf0 && lead < 0xf8)
        needs = 3;
    else if (lead >= 0xf8 && lead < 0xfc)
        needs = 4;
    else if (lead >= 0xfc && lead < 0xfe)
        needs = 5;
    return continuations < needs ? size_t(continuations + 1) : 0;
}

// Each piece of output is a token: its parameters are left as they were (only the first
// argCount are read), so a short line's text and controls do not zero 128 bytes each.
void clearToken(TerminalTokenizer::Token& token)
{
    token.kind = TerminalTokenizer::Token::Text;
    token.bytes = {};
    token.final = 0;
    token.intermed = {};
    token.leader = {};
    token.argCount = 0;
}

} // namespace

void TerminalTokenizer::begin(const char* bytes, size_t length)
{
    if (!m_heldText.empty()) {
        m_joined.assign(m_heldText);
        m_joined.append(bytes, length);
        m_heldText.clear();
        m_data = m_joined.data();
        m_size = m_joined.size();
    } else {
        m_data = bytes;
        m_size = length;
    }
    m_pos = 0;
}

void TerminalTokenizer::clear()
{
    m_heldText.clear();
    m_joined.clear();
    m_seq.clear();
    m_intermed.clear();
    m_leader.clear();
    m_state = Ground;
    m_dropping = false;
    m_pos = m_size;
}

bool TerminalTokenizer::takeHeldText(std::string& out)
{
    if (m_heldText.empty())
        return false;
    out.swap(m_heldText);
    m_heldText.clear();
    return true;
}

void TerminalTokenizer::startSequence()
{
    m_seq.assign(1, char(kEsc));
    m_intermed.clear();
    m_state = Esc;
    m_dropping = false;
}

void TerminalTokenizer::dropSequence()
{
    m_seq.clear();
    m_state = Ground;
    m_dropping = false;
}

void TerminalTokenizer::append(unsigned char c, size_t limit)
{
    if (m_dropping)
        return;
    m_seq += char(c);
    if (m_seq.size() > limit) {
        m_dropping = true;
        m_seq.clear();
    }
}

bool TerminalTokenizer::textToken(Token& token)
{
    const char* start = m_data + m_pos;
    const char* end = start;
    const char* const limit = m_data + m_size;
    while (end < limit && isText(static_cast<unsigned char>(*end)))
        ++end;
    m_pos = size_t(end - m_data);
    const char* last = end;
    if (end == limit) {
        if (const size_t partial = trailingPartial(start, end); partial > 0) {
            if (size_t(end - start) <= kMaxTextCarry) {
                m_heldText.assign(start, end);
                return false;
            }
            m_heldText.assign(end - partial, end);
            last = end - partial;
        }
    }
    clearToken(token);
    token.kind = Token::Text;
    token.bytes = std::string_view(start, size_t(last - start));
    return last > start;
}

bool TerminalTokenizer::next(Token& token)
{
    while (m_pos < m_size) {
        const auto c = static_cast<unsigned char>(m_data[m_pos]);
        if (m_state == Ground) {
            if (isText(c)) {
                if (textToken(token))
                    return true;
                continue;
            }
            if (c == kEsc && wholeCsi(token))
                return true;
            ++m_pos;
            if (c == kEsc) {
                startSequence();
                continue;
            }
            if (c == 0x00 || c == 0x18 || c == 0x1a || c == 0x7f)
                continue; // ignored by libvterm (and the end of a run of text)
            clearToken(token);
            token.kind = Token::Control;
            token.bytes = std::string_view(&kControls[c], 1);
            return true;
        }
        ++m_pos;
        // As libvterm's parser: NUL and DEL vanish, CAN and SUB cancel, ESC starts anew (or may
        // end a string), BEL ends a string, and any other C0 control is carried out at once.
        if (c == 0x00 || c == 0x7f)
            continue;
        if (c == 0x18 || c == 0x1a) {
            dropSequence();
            continue;
        }
        if (c == kEsc) {
            if (m_state == Str)
                m_state = EscInStr;
            else
                startSequence();
            continue;
        }
        if (c == 0x07 && m_state == Str) {
            m_state = Ground;
            if (m_dropping) {
                dropSequence();
                continue;
            }
            m_seq += char(c);
            clearToken(token);
            token.kind = Token::String;
            token.bytes = m_seq;
            return true;
        }
        if (c < 0x20) {
            clearToken(token);
            token.kind = Token::Control;
            token.bytes = std::string_view(&kControls[c], 1);
            return true;
        }
        switch (m_state) {
        case EscInStr:
            if (c == '\\') {
                m_state = Ground;
                if (m_dropping) {
                    dropSequence();
                    break;
                }
                m_seq += "\x1b\\";
                clearToken(token);
                token.kind = Token::String;
                token.bytes = m_seq;
                return true;
            }
            startSequence(); // the string is abandoned; this byte follows a new ESC
            if (escapeByte(c, token))
                return true;
            break;
        case Esc:
            if (escapeByte(c, token))
                return true;
            break;
        case CsiLeader:
        case CsiArgs:
        case CsiIntermed:
            if (csiByte(c, token))
                return true;
            break;
        case Str:
            append(c, kMaxString);
            break;
        case Ground:
            break;
        }
    }
    return false;
}

bool TerminalTokenizer::wholeCsi(Token& token)
{
    // The common case at once: a CSI all in this write, nothing odd in it (no control
    // character, no more parameters than libvterm holds). Anything else is read byte by byte.
    const auto* const begin = reinterpret_cast<const unsigned char*>(m_data + m_pos);
    const auto* const end = reinterpret_cast<const unsigned char*>(m_data + m_size);
    const unsigned char* p = begin + 1;
    if (p >= end || *p != '[')
        return false;
    ++p;
    const unsigned char* leader = p;
    while (p < end && *p >= 0x3c && *p <= 0x3f)
        ++p;
    if (p - leader > 15)
        return false;
    const unsigned char* leaderEnd = p;
    std::array<long, kMaxArgs> args;
    int argi = 0;
    args[0] = long(CSI_ARG_MISSING);
    for (; p < end; ++p) {
        const unsigned char c = *p;
        if (c >= '0' && c <= '9') {
            long& arg = args[size_t(argi)];
            if (arg == long(CSI_ARG_MISSING))
                arg = 0;
            arg = long((unsigned long)arg * 10 + (unsigned long)(c - '0'));
        } else if (c == ';' || c == ':') {
            if (c == ':')
                args[size_t(argi)] |= long(CSI_ARG_FLAG_MORE);
            if (argi + 1 >= kMaxArgs)
                return false;
            args[size_t(++argi)] = long(CSI_ARG_MISSING);
        } else {
            break;
        }
    }
    const unsigned char* intermed = p;
    while (p < end && *p >= 0x20 && *p <= 0x2f)
        ++p;
    if (p >= end || *p < 0x40 || *p > 0x7e || p - intermed > 15 ||
        size_t(p - begin) >= kMaxSequence)
        return false;
    ++p;
    clearToken(token);
    token.kind = Token::Csi;
    token.bytes = std::string_view(reinterpret_cast<const char*>(begin), size_t(p - begin));
    token.final = char(p[-1]);
    token.leader =
        std::string_view(reinterpret_cast<const char*>(leader), size_t(leaderEnd - leader));
    token.intermed =
        std::string_view(reinterpret_cast<const char*>(intermed), size_t(p - 1 - intermed));
    token.args = args;
    token.argCount = argi + 1;
    m_pos += size_t(p - begin);
    return true;
}

bool TerminalTokenizer::escapeByte(unsigned char c, Token& token)
{
    append(c, kMaxSequence);
    // As libvterm: P, [ and ] begin a string or a CSI whatever intermediates came before.
    if (c == 'P' || c == ']') {
        m_state = Str;
        return false;
    }
    if (c == '[') {
        m_leader.clear();
        m_state = CsiLeader;
        return false;
    }
    if (c >= 0x20 && c <= 0x2f) {
        if (m_intermed.size() < 15)
            m_intermed += char(c);
        return false;
    }
    if ((m_intermed.empty() && c >= 0x40 && c < 0x60) || (c >= 0x30 && c < 0x7f)) {
        m_state = Ground;
        if (m_dropping) {
            dropSequence();
            return false;
        }
        clearToken(token);
        token.kind = Token::Escape;
        token.bytes = m_seq;
        token.final = char(c);
        token.intermed = m_intermed;
        return true;
    }
    return false; // a byte >= 0x80 leaves libvterm waiting in its escape state
}

bool TerminalTokenizer::csiByte(unsigned char c, Token& token)
{
    if (m_state == CsiLeader) {
        if (c >= 0x3c && c <= 0x3f) {
            if (m_leader.size() < 15)
                m_leader += char(c);
            append(c, kMaxSequence);
            return false;
        }
        m_argi = 0;
        m_args[0] = long(CSI_ARG_MISSING);
        m_state = CsiArgs;
    }
    if (m_state == CsiArgs) {
        if (c >= '0' && c <= '9') {
            long& arg = m_args[size_t(m_argi)];
            if (CSI_ARG(arg) == CSI_ARG_MISSING)
                arg = 0;
            // libvterm multiplies a long: the same wrap-around, without the overflow
            arg = long((unsigned long)arg * 10 + (unsigned long)(c - '0'));
            append(c, kMaxSequence);
            return false;
        }
        if (c == ':' || c == ';') {
            if (c == ':')
                m_args[size_t(m_argi)] |= long(CSI_ARG_FLAG_MORE);
            if (m_argi + 1 >= kMaxArgs) {
                m_dropping = true; // libvterm 0.1 would write past its array
                m_seq.clear();
            } else {
                ++m_argi;
                m_args[size_t(m_argi)] = long(CSI_ARG_MISSING);
            }
            append(c, kMaxSequence);
            return false;
        }
        ++m_argi;
        m_intermed.clear();
        m_state = CsiIntermed;
    }
    if (c >= 0x20 && c <= 0x2f) {
        if (m_intermed.size() < 15)
            m_intermed += char(c);
        append(c, kMaxSequence);
        return false;
    }
    m_state = Ground;
    if (c < 0x40 || c > 0x7e || m_dropping) { // not a final byte: libvterm drops the sequence
        dropSequence();
        return false;
    }
    m_seq += char(c);
    clearToken(token);
    token.kind = Token::Csi;
    token.bytes = m_seq;
    token.final = char(c);
    token.intermed = m_intermed;
    token.leader = m_leader;
    token.args = m_args;
    token.argCount = m_argi;
    return true;
}

} // namespace lizard::terminal
