#include "notebook/headtailbuffer.h"

namespace lizard::notebook {

namespace {

// A carriage return (progress bars) overwrites the line: keep what follows the last one.
QString afterCarriageReturn(QString line)
{
    if (line.endsWith(u'\r'))
        line.chop(1);
    const qsizetype r = line.lastIndexOf(u'\r');
    return r < 0 ? line : line.mid(r + 1);
}

} // namespace

HeadTailBuffer::HeadTailBuffer(int headLines, int tailLines)
    : m_headMax(headLines), m_headLimit(headLines), m_tailLimit(tailLines)
{
}

void HeadTailBuffer::clear()
{
    m_head.clear();
    m_tail.clear();
    m_partial.clear();
    m_hidden = 0;
    m_headLimit = m_headMax;
}

void HeadTailBuffer::skipLines(qint64 lines)
{
    m_headLimit = int(m_head.size());
    m_hidden += qint64(m_tail.size()) + lines;
    m_tail.clear();
    m_partial.clear();
}

void HeadTailBuffer::completeLine(QString line)
{
    line = afterCarriageReturn(std::move(line));
    if (m_head.size() < m_headLimit) {
        m_head.append(std::move(line));
        return;
    }
    m_tail.push_back(std::move(line));
    if (int(m_tail.size()) > m_tailLimit) {
        m_tail.pop_front();
        ++m_hidden;
    }
}

void HeadTailBuffer::append(QStringView chunk)
{
    qsizetype start = 0;
    while (true) {
        const qsizetype nl = chunk.indexOf(u'\n', start);
        if (nl < 0)
            break;
        if (m_partial.isEmpty()) {
            completeLine(chunk.mid(start, nl - start).toString());
        } else {
            m_partial += chunk.mid(start, nl - start);
            completeLine(std::move(m_partial));
            m_partial.clear();
        }
        start = nl + 1;
    }
    m_partial += chunk.mid(start);
}

qint64 HeadTailBuffer::lineCount() const
{
    return m_head.size() + qint64(m_tail.size()) + m_hidden + (m_partial.isEmpty() ? 0 : 1);
}

QString HeadTailBuffer::headText() const
{
    return m_head.join(u'\n');
}

QString HeadTailBuffer::tailText() const
{
    QString text;
    for (const QString& line : m_tail) {
        if (&line != &m_tail.front())
            text += u'\n';
        text += line;
    }
    if (!m_partial.isEmpty()) {
        if (!m_tail.empty())
            text += u'\n';
        text += afterCarriageReturn(m_partial);
    }
    return text;
}

} // namespace lizard::notebook
