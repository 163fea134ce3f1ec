#include "sandboxes/templates/buildlog.h"

#include <fstream>

namespace lizard::sandboxes {

BuildLog::BuildLog(std::string path, size_t maxBytes)
    : m_path(std::move(path)), m_maxBytes(maxBytes)
{
}

void BuildLog::line(std::string text)
{
    std::lock_guard lock(m_mutex);
    if (!m_partial.empty())
        addLocked(std::exchange(m_partial, {}));
    addLocked(std::move(text));
}

void BuildLog::output(std::string_view chunk)
{
    std::lock_guard lock(m_mutex);
    for (const char c : chunk) {
        if (c == '\n') {
            m_carriageReturn = false;
            addLocked(std::exchange(m_partial, {}));
            continue;
        }
        if (c == '\r') { // "\r\n" ends a line; a "\r" before more text starts it again
            m_carriageReturn = true;
            continue;
        }
        if (m_carriageReturn) {
            m_carriageReturn = false;
            m_partial.clear(); // a progress line: what comes after the "\r" replaces it
        }
        if (c == '\t' || static_cast<unsigned char>(c) >= 0x20) {
            if (c != 0x7f && m_partial.size() < 64 * 1024)
                m_partial += c;
        }
    }
}

void BuildLog::flush()
{
    std::lock_guard lock(m_mutex);
    if (!m_partial.empty())
        addLocked(std::exchange(m_partial, {}));
}

void BuildLog::addLocked(std::string text)
{
    if (m_ended)
        return;
    if (m_bytes + text.size() + 1 > m_maxBytes) {
        m_dropped += text.size() + 1;
        return;
    }
    m_bytes += text.size() + 1;
    {
        std::ofstream out(m_path, std::ios::app | std::ios::binary);
        out << text << '\n';
    }
    for (auto& [token, listener] : m_listeners)
        listener(&text);
    m_lines.push_back(std::move(text));
}

void BuildLog::finish()
{
    std::lock_guard lock(m_mutex);
    if (m_ended)
        return;
    if (!m_partial.empty())
        addLocked(std::exchange(m_partial, {}));
    if (m_dropped > 0) {
        std::string note = "… the log reached its bound of " + std::to_string(m_maxBytes >> 20) +
                           " MiB: " + std::to_string(m_dropped) +
                           " more bytes of output were not kept";
        m_bytes = 0; // the note itself always fits
        addLocked(std::move(note));
    }
    m_ended = true;
    for (auto& [token, listener] : m_listeners)
        listener(nullptr);
    m_listeners.clear();
}

BuildLog::Subscription BuildLog::subscribe(Listener listener)
{
    std::lock_guard lock(m_mutex);
    Subscription s;
    s.lines = m_lines;
    if (m_ended) {
        s.ended = true;
        return s;
    }
    s.token = m_nextToken++;
    m_listeners.emplace(s.token, std::move(listener));
    return s;
}

void BuildLog::unsubscribe(uint64_t token)
{
    std::lock_guard lock(m_mutex);
    m_listeners.erase(token);
}

std::vector<std::string> BuildLog::readFile(const std::string& path)
{
    std::vector<std::string> out;
    std::ifstream in(path, std::ios::binary);
    std::string l;
    while (std::getline(in, l))
        out.push_back(std::move(l));
    return out;
}

} // namespace lizard::sandboxes
