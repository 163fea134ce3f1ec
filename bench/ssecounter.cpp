#include "ssecounter.h"

#include <cstring>
#include <string_view>

namespace lizard::bench {

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

long hex4(const char* p, const char* limit)
{
    if (limit - p < 4)
        return -1;
    long v = 0;
    for (int i = 0; i < 4; ++i) {
        const int h = hexValue(p[i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

} // namespace

long decodedJsonStringLength(const char* p, const char* limit, const char*& end)
{
    long bytes = 0;
    while (p < limit) {
        const char c = *p++;
        if (c == '"') {
            end = p;
            return bytes;
        }
        if (c != '\\') {
            ++bytes;
            continue;
        }
        if (p >= limit)
            return -1;
        const char e = *p++;
        if (std::strchr("\"\\/bfnrt", e) != nullptr) {
            ++bytes;
            continue;
        }
        if (e != 'u')
            return -1;
        const long cp = hex4(p, limit);
        if (cp < 0)
            return -1;
        p += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) { // a surrogate pair is one 4-byte character
            if (limit - p < 6 || p[0] != '\\' || p[1] != 'u' || hex4(p + 2, limit) < 0xDC00)
                return -1;
            p += 6;
            bytes += 4;
        } else {
            bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : 3;
        }
    }
    return -1;
}

void SseCounter::feed(const char* data, size_t size)
{
    const char* p = data;
    const char* limit = data + size;
    while (p < limit) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(limit - p)));
        if (nl == nullptr) {
            m_partial.append(p, limit);
            return;
        }
        if (m_partial.empty()) {
            line(p, nl);
        } else {
            m_partial.append(p, nl);
            line(m_partial.data(), m_partial.data() + m_partial.size());
            m_partial.clear();
        }
        p = nl + 1;
    }
}

void SseCounter::line(const char* begin, const char* end)
{
    if (end > begin && end[-1] == '\r')
        --end;
    const std::string_view text(begin, size_t(end - begin));
    if (text.substr(0, 5) != "data:")
        return; // blank separators, comments, event names
    event(begin + 5, end);
}

void SseCounter::event(const char* begin, const char* end)
{
    const std::string_view text(begin, size_t(end - begin));
    const size_t lineKey = text.find("\"line\":");
    if (lineKey != std::string_view::npos) {
        const char* q = begin + lineKey + 7;
        while (q < end && *q == ' ')
            ++q;
        const char* after = nullptr;
        const long n = q < end && *q == '"' ? decodedJsonStringLength(q + 1, end, after) : -1;
        if (n < 0) {
            if (m_malformed.empty())
                m_malformed = std::string(text.substr(0, 200));
            return;
        }
        if (text.find("\"stderr\"") == std::string_view::npos) {
            m_outputBytes += std::uint64_t(n) + 1;
            ++m_lines;
        }
        return;
    }
    const size_t exitKey = text.find("\"exitCode\":");
    if (exitKey != std::string_view::npos)
        m_exitCode = std::strtol(begin + exitKey + 11, nullptr, 10);
}

} // namespace lizard::bench
