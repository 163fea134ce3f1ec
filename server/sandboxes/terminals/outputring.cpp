#include "sandboxes/terminals/outputring.h"

namespace lizard::sandboxes {

void OutputRing::append(std::string_view bytes)
{
    m_total += bytes.size();
    if (bytes.size() >= m_capacity) {
        m_data.assign(bytes.substr(bytes.size() - m_capacity));
        return;
    }
    m_data.append(bytes);
    // Amortised: one move per capacity of output, not per chunk.
    if (m_data.size() > 2 * m_capacity)
        m_data.erase(0, m_data.size() - m_capacity);
}

std::string OutputRing::contents() const
{
    std::string_view held(m_data);
    if (held.size() > m_capacity)
        held.remove_prefix(held.size() - m_capacity);
    if (m_total > held.size()) {
        const auto newline = held.substr(0, 4096).find('\n');
        if (newline != std::string_view::npos)
            held.remove_prefix(newline + 1);
    }
    return std::string(held);
}

} // namespace lizard::sandboxes
