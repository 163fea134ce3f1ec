#include "terminal/terminalscrollback.h"

#include <QList>
#include <algorithm>

namespace lizard::terminal {

namespace {

// A trailing cell that shows nothing: never written or erased, default background.
bool invisibleTail(const GridCell& cell)
{
    return (cell.ch == 0 || cell.ch == U' ') && cell.attr.bg == kDefaultColor &&
           !(cell.attr.flags & (Reverse | Underline | Strike));
}

} // namespace

QString ScrollbackLine::cellText(int from, int to) const
{
    from = std::clamp(from, 0, cells());
    to = std::clamp(to, from, cells());
    if (offsets.empty())
        return text.mid(from, to - from);
    return text.mid(offsets[from], offsets[to] - offsets[from]);
}

int ScrollbackLine::cellAt(int pos) const
{
    if (offsets.empty())
        return pos;
    const auto it = std::upper_bound(offsets.begin(), offsets.end(), uint16_t(pos));
    return std::max(0, int(it - offsets.begin()) - 1);
}

TerminalScrollback::TerminalScrollback(int capacity) : m_capacity(std::max(1, capacity)) {}

const ScrollbackLine& TerminalScrollback::line(int index) const
{
    return m_lines[(m_head + index) % m_capacity];
}

void TerminalScrollback::push(const GridCell* cells, int count, bool wrapped)
{
    while (!wrapped && count > 0 && invisibleTail(cells[count - 1]))
        --count;
    ScrollbackLine* slot;
    if (m_count < m_capacity) {
        if (int(m_lines.size()) < m_capacity)
            m_lines.emplace_back();
        slot = &m_lines[(m_head + m_count) % m_capacity];
        ++m_count;
    } else {
        // Full: the oldest slot becomes the newest line, reusing its buffers.
        slot = &m_lines[m_head];
        m_head = (m_head + 1) % m_capacity;
        ++m_dropped;
    }
    slot->runs.clear();
    slot->offsets.clear();
    slot->wrapped = wrapped;
    // Runs are recorded only where the attributes change; a line in default attributes
    // throughout has none.
    std::vector<ScrollbackRun>& runs = slot->runs;
    CellAttr attr = count > 0 ? cells[0].attr : CellAttr();
    int runCell = 0;
    int runChar = 0;
    auto endRun = [&](int cell, int chr) {
        runs.push_back({uint16_t(cell - runCell), uint16_t(chr - runChar), attr});
        runCell = cell;
        runChar = chr;
    };
    // Most lines are one UTF-16 unit per cell: written straight into the text, no offsets.
    slot->text.resize(count);
    QChar* out = slot->text.data();
    int i = 0;
    for (; i < count; ++i) {
        const GridCell& cell = cells[i];
        if (cell.width != 1 || cell.mark != 0 || cell.ch >= 0x10000)
            break;
        if (!(cell.attr == attr)) {
            endRun(i, i);
            attr = cell.attr;
        }
        out[i] = cell.ch == 0 ? QChar(u' ') : QChar(char16_t(cell.ch));
    }
    int length = i;
    if (i < count) {
        slot->text.resize(i);
        slot->offsets.reserve(count + 1);
        for (int k = 0; k < i; ++k)
            slot->offsets.push_back(uint16_t(k));
        for (; i < count; ++i) {
            const GridCell& cell = cells[i];
            if (!(cell.attr == attr)) {
                endRun(i, length);
                attr = cell.attr;
            }
            slot->offsets.push_back(uint16_t(length));
            if (cell.width != 0) {
                const char32_t ch = cell.ch == 0 ? U' ' : cell.ch;
                slot->text += QString::fromUcs4(&ch, 1);
                if (cell.mark != 0)
                    slot->text += QString::fromUcs4(&cell.mark, 1);
            }
            length = int(slot->text.size());
        }
        slot->offsets.push_back(uint16_t(length));
    }
    if (!runs.empty() || !(attr == CellAttr()))
        endRun(count, length);
}

void TerminalScrollback::cellsOf(int index, GridCell* cells, int cols) const
{
    const ScrollbackLine& line = this->line(index);
    std::fill(cells, cells + cols, GridCell());
    const int count = std::min(cols, line.cells());
    const bool plain = line.runs.empty();
    size_t run = 0;
    int runLeft = plain ? count : (line.runs.empty() ? 0 : line.runs[0].cells);
    for (int col = 0; col < count; ++col) {
        while (!plain && runLeft == 0 && run + 1 < line.runs.size())
            runLeft = line.runs[++run].cells;
        --runLeft;
        GridCell& cell = cells[col];
        if (!plain)
            cell.attr = line.runs[run].attr;
        if (line.offsets.empty()) {
            cell.ch = line.text.at(col).unicode();
            continue;
        }
        const QString text = line.cellText(col, col + 1);
        if (text.isEmpty()) {
            cell.width = 0;
            if (col > 0)
                cells[col - 1].width = 2;
            continue;
        }
        const QList<uint> points = text.toUcs4();
        cell.ch = points.value(0);
        cell.mark = points.value(1);
    }
}

bool TerminalScrollback::pop(GridCell* cells, int cols, bool* wrapped)
{
    if (m_count == 0)
        return false;
    cellsOf(m_count - 1, cells, cols);
    if (wrapped != nullptr)
        *wrapped = line(m_count - 1).wrapped;
    --m_count;
    return true;
}

void TerminalScrollback::clear()
{
    m_lines.clear();
    m_lines.shrink_to_fit();
    m_head = 0;
    m_count = 0;
    m_dropped = 0;
}

} // namespace lizard::terminal
