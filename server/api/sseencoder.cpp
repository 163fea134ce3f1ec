#include "api/sseencoder.h"

#include "common/jsonstring.h"
#include "http/responses.h"

#include <cstring>

namespace lizard::api {

size_t utf8Boundary(std::string_view s, size_t max)
{
    if (s.size() <= max)
        return s.size();
    size_t end = max;
    // Step back over continuation bytes (at most 3) to the start of the cut sequence.
    size_t back = 0;
    while (back < 3 && end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) {
        --end;
        ++back;
    }
    return end == 0 ? max : end;
}

std::string sseEvent(const nlohmann::json& event)
{
    return "data: " + http::safeDump(event) + "\n\n";
}

LineSplitter::LineSplitter(std::string_view streamName)
{
    m_prefix = "data: {\"stream\":\"";
    m_prefix += streamName;
    m_prefix += "\",\"line\":";
}

void LineSplitter::appendEvent(std::string_view line, std::string& out) const
{
    out += m_prefix;
    appendJsonString(out, line);
    out += "}\n\n";
}

void LineSplitter::feed(std::string_view chunk, std::string& out)
{
    // One allocation for the whole chunk's events in the common case (short ASCII lines).
    out.reserve(out.size() + chunk.size() + chunk.size() / 2 + m_prefix.size() + 64);
    while (!chunk.empty()) {
        const void* nl = std::memchr(chunk.data(), '\n', chunk.size());
        if (nl == nullptr) {
            m_partial.append(chunk);
            while (m_partial.size() >= kMaxLineBytes) {
                const size_t cut = utf8Boundary(m_partial, kMaxLineBytes);
                appendEvent(std::string_view(m_partial).substr(0, cut), out);
                m_partial.erase(0, cut);
            }
            return;
        }
        const size_t len = static_cast<const char*>(nl) - chunk.data();
        if (m_partial.empty() && len <= kMaxLineBytes) {
            appendEvent(chunk.substr(0, len), out);
        } else {
            m_partial.append(chunk.substr(0, len));
            std::string_view rest(m_partial);
            while (rest.size() > kMaxLineBytes) {
                const size_t cut = utf8Boundary(rest, kMaxLineBytes);
                appendEvent(rest.substr(0, cut), out);
                rest.remove_prefix(cut);
            }
            appendEvent(rest, out);
            m_partial.clear();
        }
        chunk.remove_prefix(len + 1);
    }
}

void LineSplitter::flush(std::string& out)
{
    if (m_partial.empty())
        return;
    appendEvent(m_partial, out);
    m_partial.clear();
}

} // namespace lizard::api
