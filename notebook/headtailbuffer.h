#pragma once
// Keeps what a huge text output shows: its first and last lines, and how many lines in between
// are hidden. Text is fed in chunks as it streams; each chunk costs time in proportion to its
// own size only, however long the output already is.

#include <QString>
#include <QStringList>
#include <deque>

namespace lizard::notebook {

class HeadTailBuffer
{
public:
    explicit HeadTailBuffer(int headLines = 200, int tailLines = 200);

    void append(QStringView chunk);
    void clear();
    // lines complete lines that are not fed (a text kept on disk, shown from its head and its
    // tail): they count as hidden, the head takes no more lines, and lines already in the
    // tail are hidden too. Call between lines (after a '\n').
    void skipLines(qint64 lines);

    qint64 lineCount() const; // complete lines, plus the unfinished last one if any
    qint64 hiddenLines() const { return m_hidden; }
    bool truncated() const { return m_hidden > 0; }
    QString headText() const; // the first lines, '\n'-separated, no trailing newline
    QString tailText() const; // the last lines (and the unfinished one)

private:
    void completeLine(QString line);

    int m_headMax;
    int m_headLimit;
    int m_tailLimit;
    QStringList m_head;
    std::deque<QString> m_tail;
    QString m_partial;
    qint64 m_hidden = 0;
};

} // namespace lizard::notebook
