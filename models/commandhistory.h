#pragma once
// Console command history with shell-like Up/Down navigation. Bounded; consecutive
// duplicates are stored once; the line being typed is kept while browsing.

#include <QString>
#include <QStringList>

namespace lizard::models {

class CommandHistory
{
public:
    explicit CommandHistory(int maxEntries = 500);

    void add(const QString& command); // also ends browsing
    // Up: the previous (older) entry; `current` is what is typed now, restored by down().
    QString previous(const QString& current);
    QString next(const QString& current); // Down: newer entry, the saved typed line, or `current`
    QStringList entries() const { return m_entries; }
    bool browsing() const { return m_pos >= 0; }

private:
    QStringList m_entries;
    int m_max;
    int m_pos = -1; // index into m_entries while browsing, -1 otherwise
    QString m_typed;
};

} // namespace lizard::models
