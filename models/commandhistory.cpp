#include "models/commandhistory.h"

namespace lizard::models {

CommandHistory::CommandHistory(int maxEntries) : m_max(qMax(1, maxEntries)) {}

void CommandHistory::add(const QString& command)
{
    m_pos = -1;
    m_typed.clear();
    if (command.trimmed().isEmpty())
        return;
    if (!m_entries.isEmpty() && m_entries.last() == command)
        return;
    m_entries.append(command);
    while (m_entries.size() > m_max)
        m_entries.removeFirst();
}

QString CommandHistory::previous(const QString& current)
{
    if (m_entries.isEmpty())
        return current;
    if (m_pos < 0) {
        m_typed = current;
        m_pos = int(m_entries.size()) - 1;
    } else if (m_pos > 0) {
        --m_pos;
    }
    return m_entries.at(m_pos);
}

QString CommandHistory::next(const QString& current)
{
    if (m_pos < 0)
        return current; // not browsing: Down leaves the line alone
    if (m_pos + 1 < m_entries.size())
        return m_entries.at(++m_pos);
    m_pos = -1;
    return m_typed;
}

} // namespace lizard::models
