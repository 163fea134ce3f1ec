#include "sandboxes/schedules/runoutput.h"

namespace lizard::sandboxes {

void RunOutput::feed(std::string_view chunk)
{
    m_bytes += chunk.size();
    if (m_head.size() < kHeadBytes) {
        const size_t n = std::min(chunk.size(), kHeadBytes - m_head.size());
        m_head.append(chunk.substr(0, n));
        chunk.remove_prefix(n);
    }
    if (chunk.empty())
        return;
    m_tail.append(chunk);
    if (m_tail.size() > 2 * kTailBytes)
        m_tail.erase(0, m_tail.size() - kTailBytes);
}

std::string RunOutput::text() const
{
    const uint64_t kept = m_head.size() + std::min(m_tail.size(), kTailBytes);
    if (kept == m_bytes)
        return m_head + m_tail;
    const std::string_view tail =
        std::string_view(m_tail).substr(m_tail.size() - std::min(m_tail.size(), kTailBytes));
    return m_head + "\n[… " + std::to_string(m_bytes - kept) + " bytes of output left out …]\n" +
           std::string(tail);
}

} // namespace lizard::sandboxes
