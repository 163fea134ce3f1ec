#include "terminal/glyphwidths.h"

#include "terminal/utf8.h"

#include <array>
#include <atomic>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vterm.h>

namespace lizard::terminal {

namespace {

// A cached answer: 0 is "not asked yet"; else bit 0 set, bit 1 combining, bits 2-3 width + 1.
uint8_t pack(GlyphWidths::Info info)
{
    return uint8_t(1 | (info.combining ? 2 : 0) | ((info.width + 1) << 2));
}

GlyphWidths::Info unpack(uint8_t code)
{
    return {int8_t(((code >> 2) & 3) - 1), (code & 2) != 0};
}

// A small libvterm of its own that records the glyphs it is given to put.
class Probe
{
public:
    Probe()
    {
        m_vt = vterm_new(3, 10);
        vterm_set_utf8(m_vt, 1);
        VTermState* state = vterm_obtain_state(m_vt);
        m_callbacks.putglyph = [](VTermGlyphInfo* info, VTermPos, void* user) {
            auto* self = static_cast<Probe*>(user);
            self->m_last = {info->chars[0], info->chars[0] != 0 ? info->chars[1] : 0u};
            self->m_lastWidth = info->width;
            return 1;
        };
        vterm_state_set_callbacks(state, &m_callbacks, this);
        vterm_state_reset(state, 1);
        learnSet('0', m_dec);
        learnSet('A', m_uk);
        write("\x1b"
              "c"); // back to UTF-8 in every set
    }
    ~Probe() { vterm_free(m_vt); }
    Probe(const Probe&) = delete;
    Probe& operator=(const Probe&) = delete;

    GlyphWidths::Info ask(char32_t ch)
    {
        GlyphWidths::Info info;
        // On a row of its own after a glyph elsewhere, the character is a glyph by itself:
        // its width. After 'a' in the same write it either joins the 'a' or stands apart.
        std::string bytes = "\x1b[1;1Hx\x1b[2;1H";
        appendUtf8(bytes, ch);
        write(bytes);
        info.width = int8_t(m_lastWidth);
        bytes = "\x1b[3;1Ha";
        appendUtf8(bytes, ch);
        write(bytes);
        info.combining = m_last[0] == U'a' && m_last[1] == ch;
        return info;
    }
    const char32_t* table(char set) const { return set == '0' ? m_dec.data() : m_uk.data(); }

private:
    void write(const std::string& bytes) { vterm_input_write(m_vt, bytes.data(), bytes.size()); }
    void learnSet(char set, std::array<char32_t, 128>& table)
    {
        write(std::string("\x1b(") + set);
        for (unsigned b = 0; b < 128; ++b)
            table[b] = b;
        for (unsigned b = 0x20; b < 0x7f; ++b) {
            write("\x1b[1;1H" + std::string(1, char(b)));
            table[b] = m_last[0];
        }
    }

    VTerm* m_vt = nullptr;
    VTermStateCallbacks m_callbacks = {};
    std::array<char32_t, 2> m_last = {};
    int m_lastWidth = 0;
    std::array<char32_t, 128> m_dec = {};
    std::array<char32_t, 128> m_uk = {};
};

std::mutex& probeMutex()
{
    static std::mutex mutex;
    return mutex;
}

Probe& probe()
{
    static Probe instance;
    return instance;
}

std::atomic<uint8_t> g_bmp[0x10000];
std::unordered_map<char32_t, uint8_t>& astral()
{
    static std::unordered_map<char32_t, uint8_t> map;
    return map;
}

} // namespace

GlyphWidths::Info GlyphWidths::of(char32_t ch)
{
    if (ch >= 0x20 && ch < 0x7f)
        return {1, false};
    if (ch < 0x10000) {
        const uint8_t code = g_bmp[ch].load(std::memory_order_relaxed);
        if (code != 0)
            return unpack(code);
        const std::lock_guard lock(probeMutex());
        const Info info = probe().ask(ch);
        g_bmp[ch].store(pack(info), std::memory_order_relaxed);
        return info;
    }
    const std::lock_guard lock(probeMutex());
    auto& map = astral();
    const auto it = map.find(ch);
    if (it != map.end())
        return unpack(it->second);
    const Info info = probe().ask(ch);
    map.emplace(ch, pack(info));
    return info;
}

const char32_t* GlyphWidths::table(char set)
{
    // The tables are learned when the probe is made and never change after.
    const std::lock_guard lock(probeMutex());
    return probe().table(set);
}

} // namespace lizard::terminal
